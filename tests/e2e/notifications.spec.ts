import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from '#tests/support/axe.ts';
import { launchBrowser, uniqueEmail } from '#tests/support/browser.ts';
import { findFreePort } from '#tests/support/build-test-app.ts';
import { signedInPage, storedAccessToken } from '#tests/support/e2e-auth.ts';
import { startFakeSpeechService } from '#tests/support/fake-openai-speech.ts';
import { spawnServer, type SpawnedServer } from '#tests/support/spawn-server.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';

// The bell (issue 11 point 5) in the browser, against the built server: a teammate's meeting shared
// with Ada finishes transcribing, its transcript says her whole name, and her bell's count rises
// without a reload; opening the notification takes her to that moment of the meeting. The server's
// speech engine is an OpenAI-compatible service (a local fake of the protocol) that says exactly
// what the test needs it to.

const b64 = (value: string) => Buffer.from(value).toString('base64');

let browser: Browser;
let server: SpawnedServer;
let speech: Awaited<ReturnType<typeof startFakeSpeechService>>;
let dataDir: string;

beforeAll(async () => {
  speech = await startFakeSpeechService({ apiKey: 'sk-test' });
  speech.answer('Thanks to Ada Lovelace for the release notes');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-notify-'));
  server = await spawnServer({
    port: await findFreePort(),
    dataDir,
    env: { TRANSCRIBE_ENGINE: 'openai', TRANSCRIBE_OPENAI_URL: speech.url, TRANSCRIBE_OPENAI_KEY: 'sk-test', AUTH_AUTOCONFIRM: 'true' },
  });
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await speech?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });

describe('the notification bell', () => {
  let ada: { context: BrowserContext; page: Page; email: string };
  let owner: { context: BrowserContext; token: string };
  afterAll(async () => {
    await ada?.context.close();
    await owner?.context.close();
  });

  it('counts up live as a shared meeting that names her finishes transcribing; opening it leads to that moment', { timeout: 90_000 }, async () => {
    const signedAda = await signedInPage(browser, { baseUrl: server.baseUrl, fullName: 'Ada Lovelace', email: uniqueEmail('bell-ada') });
    ada = { context: signedAda.context, page: signedAda.page, email: signedAda.account.email };
    const signedOwner = await signedInPage(browser, { baseUrl: server.baseUrl, fullName: 'Olive Owner', email: uniqueEmail('bell-owner') });
    owner = { context: signedOwner.context, token: await storedAccessToken(signedOwner.page) };
    const { page } = ada;
    expect(await bell(page).getAttribute('aria-label')).toBe('Notifications');

    const call = async (token: string, method: string, url: string, body?: unknown) => {
      const response = await fetch(`${server.baseUrl}${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(response.ok, `${method} ${url}: ${response.status}`).toBe(true);
      return (await response.json()) as Record<string, unknown>;
    };
    // The owner invites Ada into a team: her bell hears the invitation at once.
    const team = await call(owner.token, 'POST', '/api/v1/teams', { name: 'Release crew' });
    const invitation = await call(owner.token, 'POST', `/api/v1/teams/${String(team.id)}/invitations`, { email: ada.email, role: 'member' });
    await expect.poll(() => bell(page).getAttribute('aria-label'), { timeout: 10_000 }).toBe('Notifications, 1 unread');
    await call(await storedAccessToken(page), 'POST', `/api/v1/invitations/${String(invitation.token)}/accept`);

    // The owner records a meeting shared with the team (the clip sent with tus); its transcription names Ada.
    const meeting = await call(owner.token, 'POST', '/api/v1/meetings', { title: 'Release review', source: 'upload', teamId: team.id });
    const audio = fs.readFileSync(path.join(sharedAudioDir(), 'goforward.wav'));
    const created = await fetch(`${server.baseUrl}/uploads`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${owner.token}`,
        'tus-resumable': '1.0.0',
        'upload-length': String(audio.length),
        'upload-metadata': `meetingId ${b64(String(meeting.id))},filetype ${b64('audio/wav')}`,
      },
    });
    const sent = await fetch(new URL(created.headers.get('location')!, server.baseUrl), {
      method: 'PATCH',
      headers: { authorization: `Bearer ${owner.token}`, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: audio,
    });
    expect(sent.status).toBe(204);

    // Ada never reloads: the count rises when the transcription is done.
    await expect.poll(() => bell(page).getAttribute('aria-label'), { timeout: 60_000 }).toBe('Notifications, 2 unread');
    expect(await page.getByTestId('notification-count').textContent()).toBe('2');

    await bell(page).click();
    const menu = page.getByRole('menu', { name: 'Notifications' });
    const mention = menu.getByRole('menuitem', { name: /You were mentioned in “Release review”/ });
    await mention.waitFor();
    await menu.getByRole('menuitem', { name: /Olive Owner invited you to Release crew/ }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await mention.click();
    await page.waitForURL(new RegExp(`/meetings/${String(meeting.id)}\\?t=\\d+$`));
    await page.getByRole('heading', { name: 'Release review' }).waitFor();
    await expect.poll(() => bell(page).getAttribute('aria-label')).toBe('Notifications, 1 unread');
  });
});
