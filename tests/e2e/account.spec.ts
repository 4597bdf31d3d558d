import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import yauzl from 'yauzl';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedShareLink } from '#shared/contracts/sharing.ts';
import type { MeetingDetail } from '#shared/contracts/meetings.ts';
import { e2eServer, launchBrowser, newPage } from '#tests/support/browser.ts';
import { signedInPage, signIn, signOut, storedAccessToken, toast } from '#tests/support/e2e-auth.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';

// Settings › Privacy › Delete Account through the UI (issue 11, account lifecycle): afterwards the
// server holds nothing of the person — no row in any table that names them, no audio file — and their
// old token and share link answer 401 and 404.

const { baseUrl, dataDir } = e2eServer();
const CLIP = path.join(sharedAudioDir(), 'goforward.wav');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

const b64 = (value: string) => Buffer.from(value).toString('base64');

/** A recording stored for the person through the API, as /record would store it (create the meeting, tus upload). */
async function storeRecording(token: string): Promise<string> {
  const headers = { authorization: `Bearer ${token}` };
  const created = await fetch(`${baseUrl}/api/v1/meetings`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Goodbye call', source: 'upload' }),
  });
  const meeting = (await created.json()) as MeetingDetail;
  const data = fs.readFileSync(CLIP);
  const upload = await fetch(`${baseUrl}/uploads`, {
    method: 'POST',
    headers: {
      ...headers,
      'tus-resumable': '1.0.0',
      'upload-length': String(data.length),
      'upload-metadata': `meetingId ${b64(meeting.id)},filetype ${b64('audio/wav')}`,
    },
  });
  const url = new URL(upload.headers.get('location')!, baseUrl);
  const patched = await fetch(url, {
    method: 'PATCH',
    headers: { ...headers, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    body: data,
  });
  expect(patched.status).toBe(204);
  return meeting.id;
}

/** Rows that name the person, in every table that can (read from the server's own SQLite file). */
function rowsOf(userId: string, meetingIds: string[]): Record<string, number> {
  const db = new Database(path.join(dataDir, 'parley.db'), { readonly: true });
  try {
    const count = (sql: string, ...args: string[]) => (db.prepare(sql).get(...args) as { n: number }).n;
    const inMeetings = (table: string) =>
      meetingIds.length === 0 ? 0 : count(`select count(*) as n from ${table} where meeting_id in (${meetingIds.map(() => '?').join(',')})`, ...meetingIds);
    return {
      auth_users: count('select count(*) as n from auth_users where id = ?', userId),
      auth_sessions: count('select count(*) as n from auth_sessions where user_id = ?', userId),
      auth_identities: count('select count(*) as n from auth_identities where user_id = ?', userId),
      meetings: count('select count(*) as n from meetings where owner_id = ?', userId),
      share_links: count('select count(*) as n from share_links where owner_id = ?', userId),
      user_settings: count('select count(*) as n from user_settings where user_id = ?', userId),
      transcript_segments: inMeetings('transcript_segments'),
      meeting_insights: inMeetings('meeting_insights'),
    };
  } finally {
    db.close();
  }
}

function meetingsOf(userId: string): { id: string; audio_key: string | null }[] {
  const db = new Database(path.join(dataDir, 'parley.db'), { readonly: true });
  try {
    return db.prepare('select id, audio_key from meetings where owner_id = ?').all(userId) as { id: string; audio_key: string | null }[];
  } finally {
    db.close();
  }
}

describe('Delete Account', () => {
  it('asks for the email and the password, then leaves nothing of the person: no rows, no audio, a dead token and share link', async () => {
    const { context, page, account } = await signedInPage(browser, { fullName: 'Ida Leaving', password: 'farewell12' });
    const token = await storedAccessToken(page);
    const me = (await (await fetch(`${baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } })).json()) as { id: string };
    const recorded = await storeRecording(token);
    await expect.poll(() => meetingsOf(me.id).find((m) => m.id === recorded)?.audio_key ?? null, { timeout: 30_000 }).not.toBeNull();
    const audioFile = path.join(dataDir, 'blobs', meetingsOf(me.id).find((m) => m.id === recorded)!.audio_key!);
    expect(fs.existsSync(audioFile)).toBe(true);
    const share = (await (
      await fetch(`${baseUrl}/api/v1/meetings/${recorded}/share`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })
    ).json()) as CreatedShareLink;
    const meetingIds = meetingsOf(me.id).map((m) => m.id);
    expect(rowsOf(me.id, meetingIds)).toMatchObject({ auth_users: 1, share_links: 1 });

    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Privacy' }).click();
    await page.getByRole('button', { name: 'Delete Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete account' });
    const confirm = dialog.getByRole('button', { name: 'Delete Account' });
    await dialog.getByLabel(/to confirm/).fill(account.email);
    await dialog.getByLabel('Your password').fill('not-my-password');
    await confirm.click();
    await dialog.getByText('The password is not correct. Nothing was deleted.').waitFor();
    expect(rowsOf(me.id, meetingIds).auth_users).toBe(1);

    await dialog.getByLabel('Your password').fill('farewell12');
    await confirm.click();
    await toast(page, 'Your account has been deleted').waitFor();
    await page.waitForURL(`${baseUrl}/`);

    expect(rowsOf(me.id, meetingIds)).toEqual({
      auth_users: 0,
      auth_sessions: 0,
      auth_identities: 0,
      meetings: 0,
      share_links: 0,
      user_settings: 0,
      transcript_segments: 0,
      meeting_insights: 0,
    });
    expect(fs.existsSync(audioFile)).toBe(false);
    expect((await fetch(`${baseUrl}/api/v1/meetings`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect((await fetch(`${baseUrl}/api/v1/shared/${share.token}`)).status).toBe(404);
    // Back in the app, the browser holds no session: a guarded page sends the visitor to sign in.
    await page.goto('/dashboard');
    await page.waitForURL(/\/auth$/);
    await context.close();
  });
});

/** A meeting of the person's own with a title no one else has (a transcript import through the API). */
async function importMeeting(token: string, title: string): Promise<void> {
  const response = await fetch(`${baseUrl}/api/v1/meetings/imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ fileName: 'notes.txt', title, content: 'Ada: We agreed on the plan.\nBob: I will send it out.' }),
  });
  expect(response.status).toBe(201);
}

describe('Signing out', () => {
  it('leaves nothing of the first person for the second on the same browser, not even for a moment', async () => {
    const first = await signedInPage(browser, { fullName: 'Alma First', password: 'firstpass1' });
    await importMeeting(await storedAccessToken(first.page), 'Alma ledger review');
    await first.context.close();
    const second = await signedInPage(browser, { fullName: 'Bruno Second', password: 'secondpass1' });
    await importMeeting(await storedAccessToken(second.page), 'Bruno roadmap sync');
    await second.context.close();

    // One browser, both people, no page reload between them: what this tab keeps in memory is under test.
    const { context, page } = await newPage(browser, baseUrl);
    await signIn(page, first.account);
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole('link', { name: 'Meeting History' }).first().click();
    await page.getByText('Alma ledger review').first().waitFor();
    // A recording this browser still holds for her (as /record leaves one after a dropped upload).
    await page.evaluate(
      async (ownerId) => {
        const request = indexedDB.open('parley-recordings', 1);
        request.onupgradeneeded = () => {
          request.result.createObjectStore('recordings', { keyPath: 'id' });
          request.result.createObjectStore('chunks', { keyPath: ['recordingId', 'seq'] }).createIndex('byRecording', 'recordingId');
        };
        const db = await new Promise<IDBDatabase>((resolve) => (request.onsuccess = () => resolve(request.result)));
        const tx = db.transaction('recordings', 'readwrite');
        tx.objectStore('recordings').put({
          id: crypto.randomUUID(),
          ownerId,
          meetingId: crypto.randomUUID(),
          title: 'Alma unfinished take',
          mimeType: 'audio/webm',
          startedAt: new Date().toISOString(),
          bytesRecorded: 1000,
          bytesAcked: 0,
          stopped: true,
          durationSeconds: 12,
          uploadUrl: null,
        });
        await new Promise((resolve) => (tx.oncomplete = resolve));
        db.close();
      },
      await userIdOf(page),
    );
    await page.getByRole('link', { name: 'Record Meeting' }).first().click();
    await page.getByRole('region', { name: 'Unfinished recordings' }).getByText('Alma unfinished take').waitFor();

    await signOut(page);
    await page.waitForURL(`${baseUrl}/`);
    // From here on, anything of hers on screen is recorded, however briefly it shows.
    await page.evaluate(() => {
      const hers = ['Alma ledger review', 'Alma unfinished take', 'Alma First'];
      (window as unknown as { seen: string[] }).seen = [];
      new MutationObserver(() => {
        const text = document.body.innerText;
        for (const words of hers) if (text.includes(words)) (window as unknown as { seen: string[] }).seen.push(words);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole('link', { name: 'Sign In' }).first().click();
    const panel = page.getByRole('tabpanel', { name: 'Sign In' });
    await panel.getByLabel('Email').fill(second.account.email);
    await panel.getByLabel('Password', { exact: true }).fill(second.account.password);
    await panel.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole('heading', { name: /Bruno/ }).first().waitFor();
    await page.getByRole('link', { name: 'Meeting History' }).first().click();
    await page.getByText('Bruno roadmap sync').first().waitFor();
    await page.getByRole('link', { name: 'Record Meeting' }).first().click();
    await page.getByRole('button', { name: /Start Recording/ }).waitFor();

    expect(await page.evaluate(() => (window as unknown as { seen: string[] }).seen)).toEqual([]);
    expect(await page.getByRole('region', { name: 'Unfinished recordings' }).count()).toBe(0);
    // Her recording is gone from the browser, not just hidden.
    const titles = await page.evaluate(async () => {
      const request = indexedDB.open('parley-recordings', 1);
      const db = await new Promise<IDBDatabase>((resolve) => (request.onsuccess = () => resolve(request.result)));
      const all = await new Promise<{ title: string }[]>((resolve) => {
        const read = db.transaction('recordings').objectStore('recordings').getAll();
        read.onsuccess = () => resolve(read.result as { title: string }[]);
      });
      db.close();
      return all.map((r) => r.title);
    });
    expect(titles).not.toContain('Alma unfinished take');
    await context.close();
  });
});

async function userIdOf(page: Page): Promise<string> {
  const token = await storedAccessToken(page);
  return ((await (await fetch(`${baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } })).json()) as { id: string }).id;
}

/** Every entry of a zip file, its bytes by name (yauzl: an unzip independent of the server's yazl). */
async function unzipFile(file: string): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true }, (error, opened) => (error ? reject(error) : resolve(opened))),
  );
  const entries = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          entries.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  zip.close();
  return entries;
}

describe('Request Data Export', () => {
  it('prepares the archive in the background, then the person downloads a valid zip of their account and meetings', async () => {
    const { context, page, account } = await signedInPage(browser, { fullName: 'Xenia Export' });
    const me = await userIdOf(page);
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Privacy' }).click();
    await page.getByRole('button', { name: 'Request Data Export' }).click();
    await toast(page, 'Data export requested').waitFor();
    const downloadButton = page.getByRole('button', { name: 'Download Export' });
    await downloadButton.waitFor({ timeout: 60_000 });
    await page.getByText(/Your export is ready \(\d+\.\d MB\)/).waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), downloadButton.click()]);
    expect(download.suggestedFilename()).toMatch(/^parley-export-\d{4}-\d{2}-\d{2}\.zip$/);
    const entries = await unzipFile(await download.path());
    const document = JSON.parse(entries.get('account.json')!.toString('utf8')) as {
      account: { id: string; email: string; fullName: string };
      meetings: { id: string; title: string; segments: unknown[] }[];
    };
    expect(document.account).toMatchObject({ id: me, email: account.email, fullName: 'Xenia Export' });
    expect(document.meetings.map((m) => m.id).sort()).toEqual(
      meetingsOf(me)
        .map((m) => m.id)
        .sort(),
    );
    expect(document.meetings.every((m) => m.segments.length > 0)).toBe(true);
    await context.close();
  });
});

describe('Profile picture', () => {
  it('Change uploads a picture, which the user menu shows at once, resized by the server', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Pia Picture' });
    await page.goto('/settings');
    await page.getByRole('button', { name: 'Edit' }).click();
    const photo = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#c0392b' } })
      .jpeg()
      .toBuffer();
    await page.getByLabel('Profile picture').setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: photo });
    await toast(page, 'Profile picture updated').waitFor();

    const menuPicture = page.getByRole('button', { name: /user menu/i }).locator('img');
    await menuPicture.waitFor();
    const src = (await menuPicture.getAttribute('src'))!;
    expect(src).toMatch(/^\/api\/v1\/avatars\/[0-9a-f-]{36}\?v=/);
    await expect.poll(() => menuPicture.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(256);
    const served = await sharp(Buffer.from(await (await fetch(`${baseUrl}${src}`)).arrayBuffer())).metadata();
    expect(served).toMatchObject({ format: 'webp', width: 256, height: 256 });
    // Still there after a reload: the URL is stored with the account.
    await page.reload();
    await page
      .getByRole('button', { name: /user menu/i })
      .locator('img')
      .waitFor();
    await context.close();
  });
});
