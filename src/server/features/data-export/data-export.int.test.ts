import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataExport } from '#shared/contracts/data-export.ts';
import type { MeetingDetail } from '#shared/contracts/meetings.ts';
import { StatusResponseSchema } from '#shared/contracts/status.ts';
import { localBlobPath } from '#server/lib/blob-store.ts';
import { EXPORTS_PER_DAY } from './data-export.service.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { createFakeSpeakerIdentifier, createFakeSpeechEngine } from '#tests/support/fake-speech.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { outbox } from '#tests/support/supabase-client.ts';

// Settings › Privacy "Request Data Export" (issue 11): a background job builds one zip of everything
// of the person — account.json (account, settings, meetings with transcripts and notes) and their
// recordings under audio/ — offered to them alone for 7 days, announced by email. The archive is
// read back with an independent unzip library (yauzl) and compared with what the server holds.

const CLIP = path.join(sharedAudioDir(), 'goforward.wav');
const b64 = (value: string) => Buffer.from(value).toString('base64');

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    listen: true,
    env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' },
    deps: { speech: { engine: createFakeSpeechEngine(), speakers: createFakeSpeakerIdentifier() } },
  });
});
afterAll(() => t.close());

const db = () => t.deps.database.db;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const call = (token: string, method: string, url: string, body?: unknown) =>
  fetch(`${t.baseUrl}${url}`, {
    method,
    headers: body === undefined ? auth(token) : { ...auth(token), 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** A meeting with a stored recording: created, then the whole clip sent with tus. */
async function recordedMeeting(token: string): Promise<string> {
  const meeting = (await (await call(token, 'POST', '/api/v1/meetings', { title: 'Quarterly review', source: 'upload' })).json()) as MeetingDetail;
  const data = fs.readFileSync(CLIP);
  const created = await fetch(`${t.baseUrl}/uploads`, {
    method: 'POST',
    headers: {
      ...auth(token),
      'tus-resumable': '1.0.0',
      'upload-length': String(data.length),
      'upload-metadata': `meetingId ${b64(meeting.id)},filetype ${b64('audio/wav')}`,
    },
  });
  const url = new URL(created.headers.get('location')!, t.baseUrl);
  const patched = await fetch(url, {
    method: 'PATCH',
    headers: { ...auth(token), 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    body: data,
  });
  expect(patched.status).toBe(204);
  await expect
    .poll(async () => (await db().selectFrom('meetings').select('status').where('id', '=', meeting.id).executeTakeFirst())?.status, { timeout: 30_000 })
    .toBe('ready');
  // Its notes follow the transcript (the transcript.ready event): the archive is compared with them.
  await t.deps.jobs.idle();
  return meeting.id;
}

async function latest(token: string): Promise<DataExport | null> {
  return ((await (await call(token, 'GET', '/api/v1/me/exports/latest')).json()) as { export: DataExport | null }).export;
}

/** Every entry of a zip, its bytes by name. */
async function unzip(buffer: Buffer): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))),
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
  return entries;
}

const sha = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

/**
 * How long an archive may take: it renders a PDF of each meeting in a document host and zips the
 * audio, which took over 30 s on two cores shared with the speech engines and the browser tests.
 */
const EXPORT_READY_MS = 50_000;

describe('Request Data Export', { timeout: 120_000 }, () => {
  it('builds one archive of everything of the person, offers it to them alone for 7 days and emails them', async () => {
    const person = await signUpUser(t.app, 'export', { fullName: 'Grace Export' });
    const stranger = await signUpUser(t.app, 'stranger');
    const recorded = await recordedMeeting(person.token);
    expect((await call(person.token, 'PUT', '/api/v1/settings/privacy', { autoDelete: 'never' })).status).toBe(200);
    // Tokyo time in Settings › Profile: the email's dates are in it.
    expect((await call(person.token, 'PUT', '/auth/v1/user', { data: { timezone: 'Asia/Tokyo' } })).status).toBe(200);

    const requested = await call(person.token, 'POST', '/api/v1/me/exports');
    expect(requested.status).toBe(202);
    const first = (await requested.json()) as DataExport;
    expect(first.status).toBe('queued');
    // One at a time: asking again while it is under way answers the same export.
    const again = (await (await call(person.token, 'POST', '/api/v1/me/exports')).json()) as DataExport;
    if (again.status !== 'ready') expect(again.id).toBe(first.id);

    await expect.poll(async () => (await latest(person.token))?.status, { timeout: EXPORT_READY_MS }).toBe('ready');
    const ready = (await latest(person.token))!;
    expect(ready.id).toBe(first.id);
    expect(ready.bytes).toBeGreaterThan(0);
    expect(new Date(ready.expiresAt!).getTime() - new Date(ready.readyAt!).getTime()).toBe(7 * 24 * 60 * 60 * 1000);

    // Nobody else reaches it, by any id.
    expect(await latest(stranger.token)).toBeNull();
    expect((await call(stranger.token, 'GET', `/api/v1/me/exports/${ready.id}/download`)).status).toBe(404);
    expect((await fetch(`${t.baseUrl}/api/v1/me/exports/${ready.id}/download`)).status).toBe(401);

    const download = await call(person.token, 'GET', `/api/v1/me/exports/${ready.id}/download`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/zip');
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="parley-export-\d{4}-\d{2}-\d{2}\.zip"$/);
    const archive = Buffer.from(await download.arrayBuffer());
    expect(archive.length).toBe(ready.bytes);
    const entries = await unzip(archive);

    const document = JSON.parse(entries.get('account.json')!.toString('utf8')) as {
      account: { id: string; email: string; fullName: string };
      settings: { privacy: { autoDelete: string } };
      meetings: { id: string; title: string; segments: { text: string }[]; insights: unknown[]; audioFile: string | null }[];
    };
    expect(document.account).toMatchObject({ id: person.userId, email: person.email, fullName: 'Grace Export' });
    expect(document.settings.privacy.autoDelete).toBe('never');
    const owned = await db().selectFrom('meetings').select('id').where('owner_id', '=', person.userId).execute();
    expect(document.meetings.map((m) => m.id).sort()).toEqual(owned.map((m) => m.id).sort());
    // Transcripts and notes as the server holds them.
    for (const meeting of document.meetings) {
      const segments = await db().selectFrom('transcript_segments').select('text').where('meeting_id', '=', meeting.id).execute();
      expect(meeting.segments.map((s) => s.text).sort()).toEqual(segments.map((s) => s.text).sort());
      const insights = await db().selectFrom('meeting_insights').select('id').where('meeting_id', '=', meeting.id).execute();
      expect(meeting.insights).toHaveLength(insights.length);
    }
    expect(document.meetings.some((m) => m.insights.length > 0)).toBe(true);
    // The recording, byte for byte, and nothing else besides the JSON.
    const withAudio = document.meetings.find((m) => m.id === recorded)!;
    const key = (await db().selectFrom('meetings').select('audio_key').where('id', '=', recorded).executeTakeFirstOrThrow()).audio_key!;
    expect(withAudio.audioFile).toBe(`audio/${recorded}.wav`);
    expect(sha(entries.get(withAudio.audioFile!)!)).toBe(sha(fs.readFileSync(localBlobPath(t.config.dataDir, key))));
    // Each meeting readable as Markdown too: title, notes and transcript, with its date in the name.
    const markdown = [...entries.keys()].filter((name) => name.startsWith('meetings/'));
    expect(markdown).toHaveLength(document.meetings.length);
    const recordedDoc = document.meetings.find((m) => m.id === recorded)!;
    const recordedFile = markdown.find((name) => name.endsWith(`(${recorded.slice(0, 8)}).md`))!;
    expect(recordedFile).toMatch(/^meetings\/\d{4}-\d{2}-\d{2} .+ \([0-9a-f]{8}\)\.md$/);
    const text = entries.get(recordedFile)!.toString('utf8');
    expect(text).toContain(`# ${recordedDoc.title}`);
    expect(text).toContain(recordedDoc.segments[0]!.text);
    expect([...entries.keys()].filter((name) => !name.startsWith('meetings/')).sort()).toEqual(['account.json', `audio/${recorded}.wav`]);

    // The email follows the archive's being offered (a courtesy sent after it is ready).
    const mailed = () => outbox(t.config.dataDir, person.email).filter((m) => m.kind === 'data_export');
    await expect.poll(() => mailed().length).toBe(1);
    const mail = mailed();
    expect(mail[0]!.subject).toBe('Your Parley data export is ready');
    expect(mail[0]!.text).toContain(`${t.baseUrl}/settings`);
    const until = new Intl.DateTimeFormat('en-US', {
      weekday: 'long',
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
      timeZone: 'Asia/Tokyo',
    }).format(new Date(ready.expiresAt!));
    expect(until).toMatch(/ GMT\+9$/);
    expect(mail[0]!.text).toContain(`It will be deleted on ${until}.`);

    // After its 7 days the sweep deletes it: gone from the list, the download and the disk.
    await db()
      .updateTable('data_exports')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', ready.id)
      .execute();
    expect(await latest(person.token)).toBeNull();
    const storedBefore = await t.deps.blobs.usage(person.userId);
    expect(await t.deps.services.dataExport.sweepExpired()).toBe(1);
    expect(storedBefore - (await t.deps.blobs.usage(person.userId))).toBe(ready.bytes);
    expect((await call(person.token, 'GET', `/api/v1/me/exports/${ready.id}/download`)).status).toBe(404);
    expect(fs.existsSync(path.join(t.config.dataDir, 'exports', `${ready.id}.zip`))).toBe(false);
  });

  it('Delete All Data takes the archive with it', async () => {
    const person = await signUpUser(t.app, 'export-wipe');
    const first = (await (await call(person.token, 'POST', '/api/v1/me/exports')).json()) as DataExport;
    await expect.poll(async () => (await latest(person.token))?.status, { timeout: EXPORT_READY_MS }).toBe('ready');
    const file = path.join(t.config.dataDir, 'exports', `${first.id}.zip`);
    expect(fs.existsSync(file)).toBe(true);
    // The archive counts against the person's storage until it goes.
    expect(await t.deps.blobs.usage(person.userId)).toBe(fs.statSync(file).size);
    expect((await call(person.token, 'DELETE', '/api/v1/me/data', { email: person.email })).status).toBe(200);
    expect(fs.existsSync(file)).toBe(false);
    expect(await t.deps.blobs.usage(person.userId)).toBe(0);
    expect(await latest(person.token)).toBeNull();
    expect(await db().selectFrom('data_exports').select('id').where('user_id', '=', person.userId).execute()).toEqual([]);
  });
});

describe('data exports do not pile up (#31 R3-7)', { timeout: 180_000 }, () => {
  it(`keeps only the newest archive, and a person starts at most ${EXPORTS_PER_DAY} a day`, async () => {
    const person = await signUpUser(t.app, 'export-many');
    const archives: string[] = [];
    for (let i = 0; i < EXPORTS_PER_DAY; i += 1) {
      const started = (await (await call(person.token, 'POST', '/api/v1/me/exports')).json()) as DataExport;
      await expect.poll(async () => (await latest(person.token))?.status, { timeout: EXPORT_READY_MS }).toBe('ready');
      expect((await latest(person.token))?.id).toBe(started.id);
      archives.push(path.join(t.config.dataDir, 'exports', `${started.id}.zip`));
      // The archives before it are gone, from the disk and from the storage counted.
      expect(archives.map((file) => fs.existsSync(file))).toEqual(archives.map((_, n) => n === i));
      expect(await t.deps.blobs.usage(person.userId)).toBe(fs.statSync(archives[i]!).size);
      expect(await db().selectFrom('data_exports').select('id').where('user_id', '=', person.userId).execute()).toEqual([{ id: started.id }]);
    }
    const refused = await call(person.token, 'POST', '/api/v1/me/exports');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      new RegExp(
        `^You have requested ${EXPORTS_PER_DAY} data exports in the last day, the most one person may\\. Try again in \\d+ hours?; your latest export stays available until it expires\\.$`,
      ),
    );
    // The newest archive is still offered.
    expect((await latest(person.token))?.status).toBe('ready');
  });
});

describe('a data export whose email cannot be sent', { timeout: 120_000 }, () => {
  it('is ready all the same, and the failed email is logged and counted on /status', async () => {
    // A mail server that hangs up on every connection.
    const hangUp = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => hangUp.listen(0, '127.0.0.1', resolve));
    const app = await buildTestApp({
      env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', SMTP_HOST: '127.0.0.1', SMTP_PORT: String((hangUp.address() as AddressInfo).port) },
    });
    try {
      const person = await signUpUser(app.app, 'export-unmailed');
      const inject = (method: 'GET' | 'POST', url: string) => app.app.inject({ method, url, headers: auth(person.token) });
      const failedEmails = async () => StatusResponseSchema.parse((await inject('GET', '/api/v1/status')).json()).bestEffortFailures['data-export-email'];
      const before = await failedEmails();
      expect((await inject('POST', '/api/v1/me/exports')).statusCode).toBe(202);
      await expect
        .poll(async () => ((await inject('GET', '/api/v1/me/exports/latest')).json() as { export: DataExport | null }).export?.status, {
          timeout: EXPORT_READY_MS,
        })
        .toBe('ready');
      await expect.poll(failedEmails, { timeout: 30_000 }).toBe(before! + 1);
    } finally {
      await app.close();
      await new Promise<void>((resolve) => hangUp.close(() => resolve()));
    }
  });
});
