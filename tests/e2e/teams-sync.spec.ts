import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eServer, launchBrowser, uniqueEmail } from '#tests/support/browser.ts';
import { findFreePort } from '#tests/support/build-test-app.ts';
import { signedInPage, toast } from '#tests/support/e2e-auth.ts';
import { startFakeMicrosoft, teamsVtt, type FakeMicrosoft } from '#tests/support/fake-microsoft.ts';
import { spawnServer, type SpawnedServer } from '#tests/support/spawn-server.ts';

// Settings › Connected Accounts › Microsoft Teams in the browser, against the built server and a
// local Microsoft (its sign-in approves at once): Connect Microsoft account → Sync now → the Teams
// meeting's transcript is in Parley with its speakers. Without a Microsoft app (the shared test
// server), the card says how to register one.

let browser: Browser;
let server: SpawnedServer;
let microsoft: FakeMicrosoft;
let dataDir: string;

beforeAll(async () => {
  microsoft = await startFakeMicrosoft({ clientId: 'parley-e2e-app', clientSecret: 'e2e-secret' });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-teams-sync-'));
  server = await spawnServer({
    port: await findFreePort(),
    dataDir,
    env: {
      AUTH_AUTOCONFIRM: 'true',
      MICROSOFT_CLIENT_ID: 'parley-e2e-app',
      MICROSOFT_CLIENT_SECRET: 'e2e-secret',
      MICROSOFT_LOGIN_URL: microsoft.loginUrl,
      MICROSOFT_GRAPH_URL: microsoft.graphUrl,
    },
  });
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await microsoft?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('Microsoft Teams meeting sync', () => {
  it('connects a Microsoft account, syncs now, the Teams meeting appears with its speakers, and disconnects', { timeout: 120_000 }, async () => {
    const { context, page } = await signedInPage(browser, { baseUrl: server.baseUrl, email: uniqueEmail('teams-sync') });
    try {
      await page.goto(`${server.baseUrl}/settings`);
      const sync = page.getByRole('region', { name: 'Teams meeting sync' });
      await sync.getByRole('button', { name: 'Connect Microsoft account' }).click();
      await toast(page, 'Microsoft account connected').waitFor({ timeout: 20_000 });
      await sync.getByText('Microsoft account: Ada Lovelace (ada@contoso.com)').waitFor();
      // The first sync (queued on connecting) finds nothing yet.
      await sync.getByText(/Last synced .* · 0 meetings imported · synced every hour/).waitFor({ timeout: 30_000 });

      // A Teams meeting with a transcript since then.
      const start = new Date(Date.now() - 2 * 3_600_000);
      microsoft.meetings.push({
        eventId: 'roadmap',
        subject: 'Roadmap review',
        start: start.toISOString(),
        end: new Date(start.getTime() + 3_600_000).toISOString(),
        joinUrl: 'https://teams.microsoft.com/l/meetup-join/19%3ameeting_roadmap%40thread.v2/0',
        onlineMeetingId: 'MSpkYzE3NjRkYy1lZGQ0LTQ5ZWMtOWM0NS1lYjE3ZjE4NWMxYTkqMCoqMTk6bWVldGluZ19yb2FkbWFw',
        organizer: { name: 'Ada Lovelace', address: 'ada@contoso.com' },
        attendees: [{ name: 'Grace Hopper', address: 'grace@contoso.com' }],
        transcripts: [
          {
            id: 'MSMjMCMjNjE5ZjQ4ZTUtZjQ2Yy00ZmJlLThmMWMtYzFlYjRmZmE0ZGE4',
            createdDateTime: new Date(start.getTime() + 60_000).toISOString(),
            contentCorrelationId: 'roadmap-session',
            vtt: teamsVtt([
              ['Ada Lovelace', 'Let us go through the roadmap.'],
              ['Grace Hopper', 'The compiler ships in March.'],
            ]),
          },
        ],
        recordings: [],
      });
      await sync.getByRole('button', { name: 'Sync now' }).click();
      await toast(page, 'Teams meetings synced').filter({ hasText: '1 meeting imported' }).waitFor({ timeout: 30_000 });
      await sync.getByText(/· 1 meeting imported · synced every hour/).waitFor();

      await page.goto(`${server.baseUrl}/history`);
      await page.getByRole('link', { name: 'Roadmap review' }).first().click();
      await page.getByText('The compiler ships in March.').waitFor();
      await page.getByText('Grace Hopper').first().waitFor();
      await page.getByText('Let us go through the roadmap.').waitFor();

      // Disconnecting ends the sync and keeps what it imported.
      await page.goto(`${server.baseUrl}/settings`);
      await sync.getByRole('button', { name: 'Disconnect Microsoft account' }).click();
      await toast(page, 'Microsoft account disconnected').waitFor();
      await sync.getByRole('button', { name: 'Connect Microsoft account' }).waitFor();
      await sync.getByText(/^Microsoft account: /).waitFor({ state: 'detached' });
      await page.goto(`${server.baseUrl}/history`);
      await page.getByRole('link', { name: 'Roadmap review' }).first().waitFor();
    } finally {
      await context.close();
    }
  });

  it('without a Microsoft app, says how to register one, with the redirect URI to copy', async () => {
    const { context, page } = await signedInPage(browser, { email: uniqueEmail('teams-sync-setup') });
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.goto('/settings');
      const sync = page.getByRole('region', { name: 'Teams meeting sync' });
      const redirectUri = `${e2eServer().baseUrl}/settings/connections/microsoft`;
      await sync.getByText(redirectUri, { exact: true }).waitFor();
      await sync.getByText(/OnlineMeetingTranscript\.Read\.All/).waitFor();
      expect(await sync.getByRole('button', { name: 'Connect Microsoft account' }).count()).toBe(0);
      await sync.getByRole('button', { name: 'Copy the Microsoft redirect URI' }).click();
      await toast(page, 'Redirect URI copied').waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(redirectUri);
    } finally {
      await context.close();
    }
  });
});
