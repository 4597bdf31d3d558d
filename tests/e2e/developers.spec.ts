import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, uniqueEmail } from '#tests/support/browser.ts';
import { findFreePort } from '#tests/support/build-test-app.ts';
import { signedInPage } from '#tests/support/e2e-auth.ts';
import { spawnServer, type SpawnedServer } from '#tests/support/spawn-server.ts';

// Settings › Developers in the browser, against the built server: a personal API token is shown once,
// works, and stops when revoked; a webhook endpoint on a local receiver gets a signed test event that
// its delivery log then shows. The server allows private networks so it may reach the receiver.

let browser: Browser;
let server: SpawnedServer;
let receiver: http.Server;
let receiverUrl: string;
const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
let dataDir: string;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-developers-'));
  server = await spawnServer({ port: await findFreePort(), dataDir, env: { AUTH_AUTOCONFIRM: 'true', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' } });
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('Settings › Developers', () => {
  it('creates an API token shown once, revokes it; adds a webhook and shows its signed test delivery', { timeout: 90_000 }, async () => {
    const { context, page } = await signedInPage(browser, { baseUrl: server.baseUrl, email: uniqueEmail('developers') });
    try {
      await page.goto(`${server.baseUrl}/settings?tab=developers`);
      const panel = page.getByRole('tabpanel', { name: 'Developers' });
      await panel.getByLabel('Token name').fill('Nightly export');
      await panel.getByRole('button', { name: 'Create token' }).click();
      const shown = panel.getByLabel('Your new API token');
      await expect.poll(() => shown.textContent()).toMatch(/^prly_/);
      const token = (await shown.textContent())!;
      const me = await fetch(`${server.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(me.status).toBe(200);
      await panel.getByRole('button', { name: 'Done' }).click();
      await expect.poll(() => panel.getByLabel('Your new API token').count()).toBe(0);
      const listed = panel.getByRole('list', { name: 'API tokens' });
      await expect.poll(() => listed.textContent()).toContain('Nightly export');
      expect(await listed.textContent()).not.toContain(token);
      expect(await listed.textContent()).toContain(`${token.slice(0, 9)}…`);
      await panel.getByRole('button', { name: 'Revoke Nightly export' }).click();
      await expect.poll(() => panel.getByText('You have no API tokens.').count()).toBe(1);
      expect((await fetch(`${server.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);

      await panel.getByLabel('Endpoint URL').fill(receiverUrl);
      await panel.getByRole('button', { name: 'Add endpoint' }).click();
      const secret = panel.getByLabel('Signing secret');
      await expect.poll(() => secret.textContent()).toMatch(/^whsec_/);
      const signingSecret = (await secret.textContent())!;
      const endpoint = panel.getByRole('listitem', { name: `Webhook ${receiverUrl}` });
      await endpoint.getByRole('button', { name: 'Send test event' }).click();
      const log = endpoint.getByRole('table', { name: `Deliveries to ${receiverUrl}` });
      await expect.poll(() => log.textContent(), { timeout: 20_000 }).toMatch(/webhook\.test\s*succeeded\s*200\s*1/);
      expect(received).toHaveLength(1);
      const [delivery] = received;
      const verified = new Webhook(signingSecret).verify(delivery!.body, {
        'webhook-id': String(delivery!.headers['webhook-id']),
        'webhook-timestamp': String(delivery!.headers['webhook-timestamp']),
        'webhook-signature': String(delivery!.headers['webhook-signature']),
      });
      expect(verified).toMatchObject({ type: 'webhook.test' });

      // The API reference shows each operation's example request and answer.
      await panel.getByRole('link', { name: 'API reference' }).click();
      const createToken = page.getByRole('region', { name: 'POST /api/v1/tokens' });
      await createToken.getByText('Example request').click();
      await expect.poll(() => createToken.textContent()).toContain('"scopes": [');
      await createToken.getByText('Example response').click();
      await expect.poll(() => createToken.textContent()).toMatch(/"token": "prly_/);
    } finally {
      await context.close();
    }
  });
});
