import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eServer, launchBrowser } from '#tests/support/browser.ts';
import { findFreePort } from '#tests/support/build-test-app.ts';
import { startChatReceiver, type ChatReceiver } from '#tests/support/chat-receiver.ts';
import { signedInPage, storedAccessToken, toast } from '#tests/support/e2e-auth.ts';
import { startFakeSlackApi, type FakeSlackApi } from '#tests/support/fake-slack-api.ts';
import { spawnServer, type SpawnedServer } from '#tests/support/spawn-server.ts';

// Settings › Connected Accounts with Slack and Microsoft Teams webhooks, as a person uses them: paste
// each URL, import a transcript, see the notes arrive at both (local receivers speaking the webhooks'
// answers), Share to Slack from the meeting page with its transcript, and disconnect. Then "Add to
// Slack" on a server of its own with a Slack app, against a local Slack (its Web API and OAuth v2;
// the person allows at once): back through the callback page, the channel picker, a post, disconnect.

const { baseUrl } = e2eServer();
let browser: Browser;
let receiver: ChatReceiver;
const SLACK_APP = { clientId: '1234.5678', clientSecret: 'e2e-slack-secret' };
let slack: FakeSlackApi;
let slackServer: SpawnedServer;
let slackDataDir: string;

beforeAll(async () => {
  slack = await startFakeSlackApi(SLACK_APP);
  slackDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-slack-app-'));
  [browser, receiver, slackServer] = await Promise.all([
    launchBrowser(),
    startChatReceiver(),
    spawnServer({
      port: await findFreePort(),
      dataDir: slackDataDir,
      env: {
        AUTH_AUTOCONFIRM: 'true',
        OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
        SLACK_CLIENT_ID: SLACK_APP.clientId,
        SLACK_CLIENT_SECRET: SLACK_APP.clientSecret,
        SLACK_API_URL: slack.apiUrl,
        SLACK_AUTHORIZE_URL: slack.authorizeUrl,
      },
    }),
  ]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await slackServer?.stop();
  await slack?.close();
  fs.rmSync(slackDataDir, { recursive: true, force: true });
});

const VTT = ['WEBVTT', '', '00:00:00.000 --> 00:00:08.000', '<v Ines>I will send the launch checklist to the team by Friday.', ''].join('\n');

describe('Connected Accounts: Slack and Microsoft Teams', () => {
  it('connects both webhooks, posts the notes when an imported transcript is ready, shares to Slack, and disconnects', { timeout: 90_000 }, async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Ines Chat' });
    await page.goto('/settings');
    const slackPath = `/services/T1/B1/${crypto.randomUUID()}`;
    const teamsPath = `/workflows/${crypto.randomUUID()}/triggers/manual/paths/invoke`;
    const host = new URL(receiver.url('/')).host;

    for (const [name, url] of [
      ['Slack', receiver.url(slackPath)],
      ['Microsoft Teams', `${receiver.url(teamsPath)}?sig=e2e-secret`],
    ] as const) {
      await page.getByRole('button', { name: `Connect ${name}` }).click();
      await page.getByLabel(`${name} webhook URL`).fill(url);
      await page.getByRole('button', { name: 'Connect', exact: true }).click();
      await toast(page, `${name} connected`).waitFor();
      await page.getByRole('button', { name: `Disconnect ${name}` }).waitFor();
    }
    await expect.poll(() => page.getByText(`Posting to ${host}/…`).count()).toBe(2);
    expect(await page.content()).not.toContain('e2e-secret');

    const imported = await fetch(`${baseUrl}/api/v1/meetings/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await storedAccessToken(page)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ fileName: 'launch.vtt', content: VTT, title: 'Launch checklist' }),
    });
    expect(imported.status).toBe(201);
    const { id } = (await imported.json()) as { id: string };
    await expect.poll(() => receiver.postsTo(slackPath).length, { timeout: 30_000, interval: 200 }).toBe(1);
    await expect.poll(() => receiver.postsTo(teamsPath).length, { timeout: 30_000, interval: 200 }).toBe(1);
    expect((receiver.postsTo(slackPath)[0]?.body as { text: string }).text).toMatch(/^Meeting notes are ready: Launch checklist/);
    expect(JSON.stringify(receiver.postsTo(teamsPath)[0]?.body)).toContain('application/vnd.microsoft.card.adaptive');
    await page.reload();
    await expect.poll(() => page.getByText(/^Last post: /).count(), { timeout: 10_000 }).toBe(2);

    // Share to Slack from the meeting page, with the transcript.
    await page.goto(`/meetings/${id}`);
    await page.getByRole('button', { name: 'Actions for Launch checklist' }).click();
    await page.getByRole('menuitem', { name: 'Share to Slack' }).click();
    await page.getByLabel('Include the transcript').check();
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await toast(page, 'Shared to Slack').waitFor();
    expect(JSON.stringify(receiver.postsTo(slackPath).at(-1)?.body)).toContain('*Ines* (0:00): I will send the launch checklist');

    await page.goto('/settings');
    for (const name of ['Slack', 'Microsoft Teams']) {
      await page.getByRole('button', { name: `Disconnect ${name}` }).click();
      await toast(page, `${name} disconnected`).waitFor();
      await page.getByRole('button', { name: `Connect ${name}` }).waitFor();
    }
    await context.close();
  });

  it('adds the Slack app through the sign-in at Slack, picks a channel, posts to it, and disconnects', { timeout: 60_000 }, async () => {
    const { context, page } = await signedInPage(browser, { baseUrl: slackServer.baseUrl, fullName: 'Omar App' });
    await page.goto(`${slackServer.baseUrl}/settings`);
    await page.getByRole('button', { name: 'Add to Slack' }).click();
    // Slack sends the browser back to the callback page, which finishes and opens Settings.
    await toast(page, 'Slack added').filter({ hasText: 'Pick the channel to post to.' }).waitFor({ timeout: 20_000 });
    await page.waitForURL(`${slackServer.baseUrl}/settings?tab=profile`);
    await page.getByText(/^Posting to Acme \(pick a channel\)/).waitFor();

    // The channel picker lists every page of conversations.list.
    await page.getByLabel('Slack channel').click();
    expect(await page.getByRole('option').allTextContents()).toEqual(['#general', '🔒 leads', '#random']);
    await page.getByRole('option', { name: '#general' }).click();
    await toast(page, 'Posting to #general in Acme').waitFor();
    await page.getByText(/^Posting to #general in Acme · connected by Omar App$/).waitFor();

    await page.getByRole('button', { name: 'Send test message' }).click();
    await toast(page, 'Test message sent to Slack').waitFor();
    const posted = slack.callsTo('chat.postMessage');
    expect(posted.map((c) => [c.authorization, c.params.get('channel')])).toEqual([['Bearer xoxb-test-bot-token', 'C0GENERAL']]);
    await page.getByText(/^Last post: /).waitFor();

    await page.getByRole('button', { name: 'Disconnect Slack' }).click();
    await toast(page, 'Slack disconnected').waitFor();
    await page.getByRole('button', { name: 'Add to Slack' }).waitFor();
    expect(slack.callsTo('auth.revoke').length).toBe(1);
    await context.close();
  });
});
