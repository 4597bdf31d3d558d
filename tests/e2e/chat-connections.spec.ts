import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eServer, launchBrowser } from '#tests/support/browser.ts';
import { startChatReceiver, type ChatReceiver } from '#tests/support/chat-receiver.ts';
import { signedInPage, storedAccessToken, toast } from '#tests/support/e2e-auth.ts';

// Settings › Connected Accounts with Slack and Microsoft Teams webhooks, as a person uses them: paste
// each URL, import a transcript, see the notes arrive at both (local receivers speaking the webhooks'
// answers), Share to Slack from the meeting page with its transcript, and disconnect.

const { baseUrl } = e2eServer();
let browser: Browser;
let receiver: ChatReceiver;

beforeAll(async () => {
  browser = await launchBrowser();
  receiver = await startChatReceiver();
});
afterAll(async () => {
  await browser.close();
  await receiver.close();
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
});
