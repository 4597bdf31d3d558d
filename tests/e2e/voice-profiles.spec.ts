import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from '#tests/support/axe.ts';
import { e2eServer, launchBrowser, uniqueEmail } from '#tests/support/browser.ts';
import { signedInPage, storedAccessToken, toast } from '#tests/support/e2e-auth.ts';
import { cutSharedClip, sharedAudioDir } from '#tests/support/shared-audio.ts';

// Voice profiles (issue 32) across meetings, two people on one server. Real clips, real recogniser
// and the built-in voice features: the LibriVox reader is "Tomasz" (12 s of it enrolled, the other
// 12 s met later through a boomier microphone, the bass 13 dB up), fw_left's reader a stranger. On
// this path the second half is close enough to be suggested, not named (0.76); fw_left's reader is
// suggested too (0.75), rightly rejected; once the second half is accepted the profile holds both,
// and a stretch spanning them is named at once (0.92). The feature's integration test shows the same.

const { baseUrl, dataDir } = e2eServer();
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-voices-'));
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const b64 = (value: string) => Buffer.from(value).toString('base64');

/** A stretch of one of the shared clips, as its own file (through ffmpeg's `filter`, if any). */
const cut = (clip: string, fromS: number, toS: number, filter?: string) =>
  cutSharedClip(clip, path.join(scratch, `${path.parse(clip).name}-${fromS}-${toS}${filter ? '-filtered' : ''}.wav`), fromS, toS, filter);

async function call<T>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${await storedAccessToken(page)}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${url}`).toBeLessThan(300);
  return (await response.json()) as T;
}

/**
 * A meeting of the person on `page` recorded from `file` (sent with tus, as the recorder does),
 * transcribed, and its speakers compared with the voice profiles: the meeting is ready (read from
 * the server's database; its speakers are matched before its transcript is stored, named or not).
 */
async function recorded(page: Page, title: string, file: string): Promise<string> {
  const { id } = await call<{ id: string }>(page, 'POST', '/api/v1/meetings', { title, source: 'upload' });
  const token = await storedAccessToken(page);
  const audio = fs.readFileSync(file);
  const created = await fetch(`${baseUrl}/uploads`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'tus-resumable': '1.0.0',
      'upload-length': String(audio.length),
      'upload-metadata': `meetingId ${b64(id)},filetype ${b64('audio/wav')}`,
    },
  });
  const sent = await fetch(new URL(created.headers.get('location')!, baseUrl), {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    body: audio,
  });
  expect(sent.status).toBe(204);
  const matched = () => {
    const db = new Database(path.join(dataDir, 'parley.db'), { readonly: true });
    try {
      return db.prepare(`select status from meetings where id = ?`).all(id);
    } finally {
      db.close();
    }
  };
  await expect.poll(matched, { timeout: 90_000, interval: 250 }).toEqual([{ status: 'ready' }]);
  return id;
}

const voices = (page: Page) => page.getByRole('region', { name: 'Voices' });
const speaker = (page: Page, name: string) => page.getByRole('button', { name: `Rename ${name}` });

describe('voice profiles across meetings', () => {
  it(
    'a teammate consents in the bell; a later meeting names them, a stranger suggested is rejected and the other half accepted; deleted, no longer used',
    { timeout: 300_000 },
    async () => {
      const { context: ownerContext, page: owner } = await signedInPage(browser, { fullName: 'Olga Owner', email: uniqueEmail('voices-owner') });
      const mateEmail = uniqueEmail('voices-mate');
      const { context: mateContext, page: mate } = await signedInPage(browser, { fullName: 'Tomasz Nowak', email: mateEmail });
      const team = await call<{ id: string }>(owner, 'POST', '/api/v1/teams', { name: 'Readers' });
      const invitation = await call<{ token: string }>(owner, 'POST', `/api/v1/teams/${team.id}/invitations`, { email: mateEmail, role: 'member' });
      await call(mate, 'POST', `/api/v1/invitations/${invitation.token}/accept`);
      const [firstHalf, secondHalf, middle] = [
        cut('librivox_ss_5utt.wav', 0, 12.3),
        cut('librivox_ss_5utt.wav', 12.3, 24.7, 'bass=g=13'),
        cut('librivox_ss_5utt.wav', 8.2, 16.4),
      ];

      // The owner names the speaker of a meeting after the teammate: asked first.
      const partOne = await recorded(owner, 'Reading, part one', firstHalf);
      await owner.goto(`/meetings/${partOne}`);
      await voices(owner).getByLabel('Is').selectOption({ label: 'Tomasz Nowak (asked first)' });
      await voices(owner).getByRole('button', { name: 'Name and ask them' }).click();
      await toast(owner, 'Tomasz Nowak was asked whether Parley may keep their voice.').waitFor();
      await speaker(owner, 'Tomasz Nowak').waitFor();

      // The teammate accepts in the bell's request; the profile is learned from that meeting.
      const bell = mate.getByRole('button', { name: /^Notifications/ });
      await expect.poll(() => bell.getAttribute('aria-label'), { timeout: 20_000 }).toMatch(/^Notifications, \d+ unread$/);
      await bell.click();
      await mate
        .getByRole('menu', { name: 'Notifications' })
        .getByRole('menuitem', { name: /Olga Owner asks to keep a voice profile of you/ })
        .click();
      await mate.waitForURL(/\/settings\?tab=privacy#voice-profile$/);
      const profile = mate.getByRole('region', { name: 'Voice profile' });
      await profile.getByRole('group', { name: 'Request from Olga Owner' }).getByRole('button', { name: 'Accept' }).click();
      const sources = profile.getByRole('list', { name: 'Meetings your voice profile came from' });
      await sources.getByText('Reading, part one').waitFor({ timeout: 30_000 });

      // A stranger close to the voice: suggested, rejected, never asked again.
      const stranger = await recorded(owner, 'Wizard story', path.join(sharedAudioDir(), 'fw_left.wav'));
      await owner.goto(`/meetings/${stranger}`);
      const strangerQuestion = voices(owner).getByRole('group', { name: 'Suggestion for Speaker 1' });
      await strangerQuestion.getByText('Speaker 1: is this Tomasz Nowak?').waitFor();
      expect(await seriousAxeViolations(owner)).toEqual([]);
      await strangerQuestion.getByRole('button', { name: 'No' }).click();
      await strangerQuestion.waitFor({ state: 'detached' });
      await owner.reload();
      await speaker(owner, 'Speaker 1').waitFor();
      expect(await voices(owner).getByRole('group').count()).toBe(0);

      // The teammate's other half: suggested, accepted, named, and the profile learns it.
      const partTwo = await recorded(owner, 'Reading, part two', secondHalf);
      await owner.goto(`/meetings/${partTwo}`);
      const question = voices(owner).getByRole('group', { name: 'Suggestion for Speaker 1' });
      await question.getByText('Speaker 1: is this Tomasz Nowak?').waitFor();
      await question.getByRole('button', { name: 'Yes, it is' }).click();
      await speaker(owner, 'Tomasz Nowak').waitFor();
      // The voice is learned by a job after the answer; the teammate's page, which is not waiting on
      // anything of its own, shows it on a reload once the job is done.
      await expect
        .poll(
          async () => {
            await mate.reload();
            await sources.waitFor();
            return sources.getByText('Reading, part two').count();
          },
          { timeout: 90_000, interval: 1_000 },
        )
        .toBe(1);

      // A later meeting of the same voice is named at once.
      const later = await recorded(owner, 'Reading, the middle', middle);
      await owner.goto(`/meetings/${later}`);
      await speaker(owner, 'Tomasz Nowak').waitFor();
      expect(await voices(owner).getByRole('group').count()).toBe(0);

      // The teammate deletes the profile: the next meeting of the voice is neither named nor suggested.
      await profile.getByRole('button', { name: 'Delete voice profile' }).click();
      await toast(mate, 'Your voice profile was deleted.').waitFor();
      await profile.getByText('You have no voice profile.', { exact: false }).waitFor();
      const afterDeletion = await recorded(owner, 'Reading, the middle again', middle);
      await owner.goto(`/meetings/${afterDeletion}`);
      await speaker(owner, 'Speaker 1').waitFor();
      await voices(owner).getByRole('button', { name: 'This speaker is me' }).waitFor();
      expect(await voices(owner).getByRole('group').count()).toBe(0);

      // Shared with the team, the teammate says themself which speaker they are: their voice is learned again.
      await call(owner, 'PATCH', `/api/v1/meetings/${afterDeletion}`, { teamId: team.id });
      await mate.goto(`/meetings/${afterDeletion}`);
      await voices(mate).getByRole('button', { name: 'This speaker is me' }).click();
      await toast(mate, 'Learning your voice from this meeting…').waitFor();
      // Learned by a job queued from the consent's event, as after the answer above: as long to wait.
      await voices(mate).getByText('Your voice profile has this voice now: later meetings name you.').waitFor({ timeout: 90_000 });
      expect(await seriousAxeViolations(mate)).toEqual([]);
      await expect.poll(() => mate.getByRole('list', { name: 'Transcript' }).textContent()).toContain('Tomasz Nowak');
      await ownerContext.close();
      await mateContext.close();
    },
  );
});
