import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedShareLink } from '#shared/contracts/sharing.ts';
import type { MeetingDetail, MeetingListResponse } from '#shared/contracts/meetings.ts';
import { AppError } from '#server/lib/app-error.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { createFakeSpeakerIdentifier, createFakeSpeechEngine } from '#tests/support/fake-speech.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';

// Settings › Privacy's danger zone (issue 11, account lifecycle): Delete All Data and Delete Account
// take everything of the person at once — meetings with their audio on disk, an upload in progress,
// notes and tracker items, share links, settings, the other sessions (and for the account, every
// session and the user) — and nothing of anyone else. Real HTTP, real database, real files.

const CLIP = path.join(sharedAudioDir(), 'goforward.wav');
const PASSWORD = 'secret12'; // signUpUser's
const b64 = (value: string) => Buffer.from(value).toString('base64');

/** Accounts the test's beforeAccountDeleted port refuses, as the teams feature will refuse a team owner. */
const heldBack = new Set<string>();

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    listen: true,
    env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' },
    deps: {
      speech: { engine: createFakeSpeechEngine(), speakers: createFakeSpeakerIdentifier() },
      beforeAccountDeleted: [
        async (userId) => {
          if (heldBack.has(userId)) throw new AppError('CONFLICT', 'You own a team: transfer it or delete it first. Nothing was deleted.');
        },
      ],
    },
  });
});
afterAll(() => t.close());

const db = () => t.deps.database.db;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const json = (token: string) => ({ ...auth(token), 'content-type': 'application/json' });

async function call(token: string, method: string, url: string, body?: unknown): Promise<Response> {
  return fetch(`${t.baseUrl}${url}`, {
    method,
    headers: body === undefined ? auth(token) : json(token),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const messageOf = async (response: Response) => ((await response.json()) as { error: { message: string } }).error.message;

/** A second device of the same person: a password sign-in of its own. */
async function secondSession(email: string): Promise<{ token: string; refreshToken: string }> {
  const response = await fetch(`${t.baseUrl}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', apikey: t.deps.auth.anonKey },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const body = (await response.json()) as { access_token: string; refresh_token: string };
  return { token: body.access_token, refreshToken: body.refresh_token };
}

async function newMeeting(token: string, title: string): Promise<string> {
  const response = await call(token, 'POST', '/api/v1/meetings', { title, source: 'upload' });
  return ((await response.json()) as MeetingDetail).id;
}

/** tus: creates an upload for the meeting and sends `bytes` of the clip; the whole clip stores the recording. */
async function upload(token: string, meetingId: string, whole: boolean): Promise<string> {
  const data = fs.readFileSync(CLIP);
  const created = await fetch(`${t.baseUrl}/uploads`, {
    method: 'POST',
    headers: {
      ...auth(token),
      'tus-resumable': '1.0.0',
      'upload-length': String(data.length),
      'upload-metadata': `meetingId ${b64(meetingId)},filetype ${b64('audio/wav')}`,
    },
  });
  expect(created.status).toBe(201);
  const url = new URL(created.headers.get('location')!, t.baseUrl).toString();
  const body = whole ? data : data.subarray(0, 16_384);
  const patched = await fetch(url, {
    method: 'PATCH',
    headers: { ...auth(token), 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    body,
  });
  expect(patched.status).toBe(204);
  return url;
}

const filesIn = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => path.join(e.parentPath, e.name))
    : [];

/** A person with everything the danger zone must remove: samples (with notes and tracker items), a stored recording, an upload under way, a share link, saved settings, a second session. */
async function personWithData(prefix: string) {
  const person = await signUpUser(t.app, prefix);
  const other = await secondSession(person.email);
  const recorded = await newMeeting(person.token, 'Recorded');
  await upload(person.token, recorded, true);
  await expect
    .poll(async () => (await db().selectFrom('meetings').select('audio_key').where('id', '=', recorded).executeTakeFirst())?.audio_key ?? null)
    .not.toBeNull();
  const uploading = await newMeeting(person.token, 'Still uploading');
  const uploadUrl = await upload(person.token, uploading, false);
  const sample = await db().selectFrom('meetings').select('id').where('owner_id', '=', person.userId).where('is_sample', '=', 1).executeTakeFirstOrThrow();
  const share = (await (await call(person.token, 'POST', `/api/v1/meetings/${sample.id}/share`)).json()) as CreatedShareLink;
  expect((await call('', 'GET', `/api/v1/shared/${share.token}`)).status).toBe(200);
  expect((await call(person.token, 'PUT', '/api/v1/settings/privacy', { autoDelete: 'never' })).status).toBe(200);
  const audioKey = (await db().selectFrom('meetings').select('audio_key').where('id', '=', recorded).executeTakeFirstOrThrow()).audio_key!;
  const audioFile = path.join(t.config.dataDir, 'blobs', audioKey);
  expect(fs.existsSync(audioFile)).toBe(true);
  const uploadId = new URL(uploadUrl).pathname.split('/').pop()!;
  expect(filesIn(path.join(t.config.dataDir, 'uploads')).some((file) => path.basename(file).startsWith(uploadId))).toBe(true);
  return { ...person, other, share, audioFile, uploadId, uploadUrl };
}

/** What the database still holds of a person, table by table. */
async function leftOf(userId: string) {
  const meetingIds = (await db().selectFrom('meetings').select('id').where('owner_id', '=', userId).execute()).map((r) => r.id);
  const count = async (table: 'meeting_insights' | 'transcript_segments' | 'meeting_notes', ids: string[]) =>
    ids.length === 0 ? 0 : (await db().selectFrom(table).select('meeting_id').where('meeting_id', 'in', ids).execute()).length;
  return {
    meetings: meetingIds.length,
    insights: await count('meeting_insights', meetingIds),
    segments: await count('transcript_segments', meetingIds),
    shareLinks: (await db().selectFrom('share_links').select('id').where('owner_id', '=', userId).execute()).length,
    settings: (await db().selectFrom('user_settings').select('user_id').where('user_id', '=', userId).execute()).length,
    sessions: (await db().selectFrom('auth_sessions').select('id').where('user_id', '=', userId).execute()).length,
    users: (await db().selectFrom('auth_users').select('id').where('id', '=', userId).execute()).length,
  };
}

const uploadFilesOf = (uploadId: string) => filesIn(path.join(t.config.dataDir, 'uploads')).filter((file) => path.basename(file).startsWith(uploadId));

describe('Delete All Data (DELETE /api/v1/me/data)', () => {
  it('a mistyped email deletes nothing', async () => {
    const person = await signUpUser(t.app, 'typo');
    const before = await leftOf(person.userId);
    const refused = await call(person.token, 'DELETE', '/api/v1/me/data', { email: 'someone-else@example.com' });
    expect(refused.status).toBe(400);
    expect(await messageOf(refused)).toBe("The email you typed is not this account's email. Nothing was deleted.");
    expect(await leftOf(person.userId)).toEqual(before);
    expect(before.meetings).toBeGreaterThan(0);
  });

  it('removes every meeting, its audio and upload on disk, notes, share links, settings and the other sessions; this session and other people stay', async () => {
    const person = await personWithData('wipe');
    const bystander = await signUpUser(t.app, 'bystander');
    const bystanderBefore = await leftOf(bystander.userId);
    const before = await leftOf(person.userId);
    expect(before).toMatchObject({ shareLinks: 1, settings: 1, sessions: 2, users: 1 });
    expect(before.insights).toBeGreaterThan(0);

    // The email is typed as people type: other case, spaces around.
    const deleted = await call(person.token, 'DELETE', '/api/v1/me/data', { email: `  ${person.email.toUpperCase()} ` });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ deletedMeetings: before.meetings });

    expect(await leftOf(person.userId)).toEqual({ meetings: 0, insights: 0, segments: 0, shareLinks: 0, settings: 0, sessions: 1, users: 1 });
    expect(fs.existsSync(person.audioFile)).toBe(false);
    expect(uploadFilesOf(person.uploadId)).toEqual([]);
    // Nothing stored is counted against them any more.
    expect(await t.deps.blobs.usage(person.userId)).toBe(0);
    // The upload can take no more bytes, the share link shows nothing, the other device is signed out.
    expect((await fetch(person.uploadUrl, { method: 'HEAD', headers: { ...auth(person.token), 'tus-resumable': '1.0.0' } })).status).toBe(404);
    expect((await call('', 'GET', `/api/v1/shared/${person.share.token}`)).status).toBe(404);
    expect((await call(person.other.token, 'GET', '/api/v1/meetings')).status).toBe(401);
    // This session goes on, on an empty account with default settings.
    const list = (await (await call(person.token, 'GET', '/api/v1/meetings')).json()) as MeetingListResponse;
    expect(list.total).toBe(0);
    expect((await call(person.token, 'GET', '/api/v1/settings')).status).toBe(200);

    expect(await leftOf(bystander.userId)).toEqual(bystanderBefore);
  });
});

describe('Delete All Data and the blob store', () => {
  it("deletes every blob stored as the person's, whatever holds its key, and no one else's", async () => {
    const person = await signUpUser(t.app, 'wipe-blobs');
    const bystander = await signUpUser(t.app, 'wipe-blobs-bystander');
    const theirs = t.deps.blobs.newKey('mp3');
    const others = t.deps.blobs.newKey('mp3');
    await t.deps.blobs.put(theirs, Buffer.alloc(700, 1), { ownerId: person.userId, kind: 'download' });
    await t.deps.blobs.put(others, Buffer.alloc(300, 1), { ownerId: bystander.userId, kind: 'download' });
    expect((await call(person.token, 'DELETE', '/api/v1/me/data', { email: person.email })).status).toBe(200);
    expect(await t.deps.blobs.exists(theirs)).toBe(false);
    expect(await t.deps.blobs.usage(person.userId)).toBe(0);
    expect(await t.deps.blobs.exists(others)).toBe(true);
    expect(await t.deps.blobs.usage(bystander.userId)).toBe(300);
  });
});

describe('Delete Account (DELETE /api/v1/me)', () => {
  it('needs the email and the password: either wrong deletes nothing', async () => {
    const person = await signUpUser(t.app, 'confirm');
    const before = await leftOf(person.userId);
    const wrongPassword = await call(person.token, 'DELETE', '/api/v1/me', { email: person.email, password: 'not-my-password' });
    expect(wrongPassword.status).toBe(403);
    expect(await messageOf(wrongPassword)).toBe('The password is not correct. Nothing was deleted.');
    const wrongEmail = await call(person.token, 'DELETE', '/api/v1/me', { email: 'nope@example.com', password: PASSWORD });
    expect(wrongEmail.status).toBe(400);
    const missing = await call(person.token, 'DELETE', '/api/v1/me', { email: person.email });
    expect(missing.status).toBe(400);
    expect(await leftOf(person.userId)).toEqual(before);
  });

  it('is refused, with what to do, while something holds the account back (the beforeAccountDeleted port)', async () => {
    const person = await signUpUser(t.app, 'held');
    heldBack.add(person.userId);
    const before = await leftOf(person.userId);
    const refused = await call(person.token, 'DELETE', '/api/v1/me', { email: person.email, password: PASSWORD });
    expect(refused.status).toBe(409);
    expect(await messageOf(refused)).toBe('You own a team: transfer it or delete it first. Nothing was deleted.');
    expect(await leftOf(person.userId)).toEqual(before);
    heldBack.delete(person.userId);
  });

  it('removes the person and all of it: every token, refresh token and share link stops working, the files are gone, others keep theirs', async () => {
    const person = await personWithData('leave');
    const bystander = await signUpUser(t.app, 'stays');
    const bystanderBefore = await leftOf(bystander.userId);

    const deleted = await call(person.token, 'DELETE', '/api/v1/me', { email: person.email, password: PASSWORD });
    expect(deleted.status).toBe(200);

    expect(await leftOf(person.userId)).toEqual({ meetings: 0, insights: 0, segments: 0, shareLinks: 0, settings: 0, sessions: 0, users: 0 });
    for (const table of ['auth_identities', 'auth_one_time_tokens', 'auth_mfa_factors'] as const) {
      expect(await db().selectFrom(table).select('user_id').where('user_id', '=', person.userId).execute()).toEqual([]);
    }
    expect(fs.existsSync(person.audioFile)).toBe(false);
    expect(uploadFilesOf(person.uploadId)).toEqual([]);

    for (const token of [person.token, person.other.token]) {
      expect((await call(token, 'GET', '/api/v1/meetings')).status).toBe(401);
      expect((await call(token, 'GET', '/api/v1/me')).status).toBe(401);
    }
    const refresh = await fetch(`${t.baseUrl}/auth/v1/token?grant_type=refresh_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: t.deps.auth.anonKey },
      body: JSON.stringify({ refresh_token: person.other.refreshToken }),
    });
    expect(refresh.status).toBe(400);
    const signIn = await fetch(`${t.baseUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: t.deps.auth.anonKey },
      body: JSON.stringify({ email: person.email, password: PASSWORD }),
    });
    expect(signIn.status).toBe(400);
    expect((await call('', 'GET', `/api/v1/shared/${person.share.token}`)).status).toBe(404);
    expect((await fetch(person.uploadUrl, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } })).status).toBeGreaterThanOrEqual(401);

    expect(await leftOf(bystander.userId)).toEqual(bystanderBefore);
    // The address is free again: signing up with it makes a new, different account.
    const again = await t.app.inject({ method: 'POST', url: '/auth/v1/signup', payload: { email: person.email, password: 'another12' } });
    expect(again.statusCode).toBe(200);
    expect((again.json() as { user: { id: string } }).user.id).not.toBe(person.userId);
  });
});

describe('Profile picture (PUT /api/v1/me/avatar, GET /api/v1/avatars/:id)', () => {
  it('stores any readable image as a 256×256 WebP served at the URL it answers; not an image is refused; Delete All Data takes it', async () => {
    const person = await signUpUser(t.app, 'avatar');
    // A wide photo-like picture: cropped to the square, not squashed.
    const png = await sharp({ create: { width: 1200, height: 600, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const saved = await call(person.token, 'PUT', '/api/v1/me/avatar', { image: png.toString('base64') });
    expect(saved.status).toBe(200);
    const { avatarUrl } = (await saved.json()) as { avatarUrl: string };
    expect(avatarUrl).toMatch(new RegExp(`^/api/v1/avatars/${person.userId}\\?v=[0-9a-z]+$`));

    const served = await fetch(`${t.baseUrl}${avatarUrl}`); // an <img>: no token
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    const metadata = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(metadata).toMatchObject({ format: 'webp', width: 256, height: 256 });

    const refused = await call(person.token, 'PUT', '/api/v1/me/avatar', { image: Buffer.from('not a picture at all').toString('base64') });
    expect(refused.status).toBe(400);
    expect(await messageOf(refused)).toBe('That file is not a picture Parley can read. Use a PNG, JPEG, WebP or GIF image.');
    // The refused upload left the stored picture as it was.
    expect((await fetch(`${t.baseUrl}${avatarUrl}`)).status).toBe(200);
    expect((await fetch(`${t.baseUrl}/api/v1/me/avatar`, { method: 'PUT', body: '{}' })).status).toBe(401);
    expect((await fetch(`${t.baseUrl}/api/v1/avatars/${crypto.randomUUID()}`)).status).toBe(404);

    expect((await call(person.token, 'DELETE', '/api/v1/me/data', { email: person.email })).status).toBe(200);
    expect((await fetch(`${t.baseUrl}${avatarUrl}`)).status).toBe(404);
  });
});

describe('Profile picture and storage', () => {
  it("counts the picture against its person's storage, and Delete All Data frees it", async () => {
    const person = await signUpUser(t.app, 'avatar-storage');
    const storageUsed = async () => ((await (await call(person.token, 'GET', '/api/v1/meetings/stats')).json()) as { storageBytes: number }).storageBytes;
    const before = await storageUsed();
    const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#cc6633' } })
      .png()
      .toBuffer();
    const { avatarUrl } = (await (await call(person.token, 'PUT', '/api/v1/me/avatar', { image: png.toString('base64') })).json()) as { avatarUrl: string };
    const served = Buffer.from(await (await fetch(`${t.baseUrl}${avatarUrl}`)).arrayBuffer());
    expect(served.length).toBeGreaterThan(0);
    expect((await storageUsed()) - before).toBe(served.length);

    expect((await call(person.token, 'DELETE', '/api/v1/me/data', { email: person.email })).status).toBe(200);
    expect(await storageUsed()).toBe(0);
  });
});

describe('Profile picture: what it accepts, and how often', () => {
  const NOT_A_PICTURE = 'That file is not a picture Parley can read. Use a PNG, JPEG, WebP or GIF image.';
  const upload = (token: string, image: Buffer) => call(token, 'PUT', '/api/v1/me/avatar', { image: image.toString('base64') });

  it('refuses an SVG (a program for the renderer, not a picture) before rendering it', async () => {
    const person = await signUpUser(t.app, 'avatar-svg');
    // Small, and a few seconds of CPU to render: what made four uploads stall every file read of the server.
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="4000"><filter id="f"><feGaussianBlur stdDeviation="400"/></filter>' +
        '<rect width="4000" height="4000" fill="#36c" filter="url(#f)"/></svg>',
    );
    const refused = await upload(person.token, svg);
    expect(refused.status).toBe(400);
    expect(await messageOf(refused)).toBe(NOT_A_PICTURE);
    expect((await fetch(`${t.baseUrl}/api/v1/avatars/${person.userId}`)).status).toBe(404);
  });

  it('refuses a PNG that inflates to tens of megapixels before decoding it', async () => {
    const person = await signUpUser(t.app, 'avatar-bomb');
    // 6000×6000 grey, all zeros: 36 megapixels from a file of about 40 KB.
    const bomb = pngOf(6000, 6000);
    expect(bomb.length).toBeLessThan(100_000);
    const refused = await upload(person.token, bomb);
    expect(refused.status).toBe(400);
    expect(await messageOf(refused)).toBe('That picture is too large: use one of at most 24 megapixels.');
  });

  it('takes at most 10 pictures an hour from one person', async () => {
    const person = await signUpUser(t.app, 'avatar-often');
    const other = await signUpUser(t.app, 'avatar-other');
    const png = pngOf(16, 16);
    for (let i = 0; i < 10; i += 1) expect((await upload(person.token, png)).status).toBe(200);
    const eleventh = await upload(person.token, png);
    expect(eleventh.status).toBe(429);
    expect(await messageOf(eleventh)).toBe('You have changed your picture 10 times in the last hour. Try again later.');
    expect((await upload(other.token, png)).status).toBe(200);
  });
});

/** An 8-bit greyscale PNG of zeros, written by hand so its size is the compressed one (sharp would not write such a file quickly). */
function pngOf(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((width + 1) * height); // each row: filter 0, then zeros
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
