import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '#tests/support/build-test-app.ts';
import { e2eServer, launchBrowser } from '#tests/support/browser.ts';
import { seriousAxeViolations } from '#tests/support/axe.ts';
import { signedInPage } from '#tests/support/e2e-auth.ts';
import { startFakeChatService, type FakeChatService } from '#tests/support/fake-openai-chat.ts';
import { spawnServer, type SpawnedServer } from '#tests/support/spawn-server.ts';

/**
 * Ask on the history and meeting pages (issue 14): without a model the most relevant moments,
 * labelled so, grouped by meeting; with the notes' LLM (a local fake chat server) a cited answer.
 * Citations name the meeting, the speaker and the time, link to the moment, and the player seeks there.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

const QUESTION = 'How long does QA need for the regression suite?';
const EMMA_LINE = 'QA needs two more days for the regression suite, mostly the billing screens.';

/** Gives the meeting ten minutes of WAV as its recording, stored as the recording flow stores one. */
function attachRecording(dataDir: string, meetingId: string): void {
  const id = crypto.randomUUID();
  const key = `${id.slice(0, 2)}/${id}.wav`;
  const file = path.join(dataDir, 'blobs', key);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=330:duration=600', '-ar', '16000', '-ac', '1', file]);
  const db = new Database(path.join(dataDir, 'parley.db'));
  db.prepare("update meetings set audio_key = ?, audio_mime = 'audio/wav', audio_bytes = ? where id = ?").run(key, fs.statSync(file).size, meetingId);
  db.close();
}

/** The meeting's id from the history card's link. */
async function standupId(page: Page): Promise<string> {
  const href = await page.getByRole('link', { name: 'Weekly Team Standup' }).first().getAttribute('href');
  return href!.split('/').at(-1)!.split('?')[0]!;
}

const ask = async (page: Page, question: string) => {
  await page.getByRole('textbox', { name: 'Question' }).fill(question);
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
};

/** The player's position in seconds, as it reads out ("00:42 of 10:00"). */
async function position(page: Page): Promise<number> {
  const text = (await page.getByRole('slider', { name: 'Playback position' }).getAttribute('aria-valuetext')) ?? '';
  const [minutes, seconds] = text.split(' of ')[0]!.split(':').map(Number);
  return minutes! * 60 + seconds!;
}

/** The player went to `seconds` (and plays on from there: a seek to a moment plays it). */
const playsFrom = (page: Page, seconds: number) =>
  expect.poll(async () => Math.floor((await position(page)) - seconds), { timeout: 20_000 }).toSatisfy((d: number) => d >= 0 && d < 10);

describe('Ask without an AI model', () => {
  it('answers with the most relevant moments, labelled so; a moment opens the meeting there and the player seeks to it', { timeout: 90_000 }, async () => {
    const { dataDir } = e2eServer();
    const { context, page } = await signedInPage(browser, { fullName: 'Ada Asker' });
    try {
      await page.goto('/history');
      await page.getByRole('heading', { name: 'Ask your meetings' }).waitFor();
      attachRecording(dataDir, await standupId(page));
      await ask(page, QUESTION);
      await page.getByText('No AI model is configured; here are the most relevant moments.').waitFor();
      const moments = page.getByRole('list', { name: 'Moments in Weekly Team Standup' });
      const first = moments.getByRole('link').first();
      await first.getByText('Emma Wilson · 00:42', { exact: true }).waitFor();
      expect(await first.textContent()).toContain(EMMA_LINE);
      expect(await first.getAttribute('href')).toMatch(/^\/meetings\/[0-9a-f-]{36}\?t=42000$/);
      expect(await seriousAxeViolations(page)).toEqual([]);

      await first.click();
      await page.waitForURL(/\/meetings\/[0-9a-f-]{36}\?t=42000$/);
      await page.getByRole('heading', { name: 'Weekly Team Standup', level: 1 }).waitFor();
      await playsFrom(page, 42);

      // On the meeting page, Ask is about this meeting, and a moment seeks this page's player.
      await page.getByRole('heading', { name: 'Ask about this meeting' }).waitFor();
      await ask(page, 'Where is the API migration blocked?');
      const here = page.getByRole('list', { name: 'Moments in Weekly Team Standup' }).getByRole('link').first();
      const label = (await here.locator('span').first().textContent())!;
      const [minutes, seconds] = label.split(' · ').at(-1)!.split(':');
      await here.click();
      await playsFrom(page, Number(minutes) * 60 + Number(seconds));
      expect(page.url()).toMatch(/\?t=42000$/); // the page stayed; its player moved
    } finally {
      await context.close();
    }
  });
});

describe('Ask with the notes LLM', () => {
  let chat: FakeChatService;
  let server: SpawnedServer;
  let dataDir: string;
  beforeAll(async () => {
    chat = await startFakeChatService();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-ask-'));
    server = await spawnServer({
      port: await findFreePort(),
      dataDir,
      env: { NOTES_LLM_URL: chat.url, NOTES_LLM_MODEL: 'fake-notes-model' },
    });
  });
  afterAll(async () => {
    await server.stop();
    await chat.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers in cited sentences; a source names meeting, speaker and time and opens the moment', { timeout: 90_000 }, async () => {
    const { context, page } = await signedInPage(browser, { baseUrl: server.baseUrl, fullName: 'Lin Llm' });
    try {
      await page.goto('/history');
      attachRecording(dataDir, await standupId(page));
      await ask(page, QUESTION);
      const answer = page.getByLabel('Answer');
      await answer.getByText(EMMA_LINE).first().waitFor();
      expect(await page.getByText('No AI model is configured').count()).toBe(0);
      const source = answer.getByRole('link', { name: /^Source 1: Weekly Team Standup, Emma Wilson · 00:42$/ });
      expect(await source.getAttribute('href')).toMatch(/^\/meetings\/[0-9a-f-]{36}\?t=42000$/);
      const sources = page.getByRole('list', { name: 'Sources' });
      await sources.getByText('[1] Weekly Team Standup · Emma Wilson · 00:42').waitFor();
      // The model read the question and the passages, not the whole of every meeting.
      expect(chat.requests.at(-1)!.messages[1]!.content).toContain(QUESTION);

      await source.click();
      await page.waitForURL(/\/meetings\/[0-9a-f-]{36}\?t=42000$/);
      await playsFrom(page, 42);
    } finally {
      await context.close();
    }
  });
});
