import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AudioLinkSchema, AudioPeaksSchema, MeetingListResponseSchema } from '#shared/contracts/meetings.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { localBlobPath } from '#server/lib/blob-store.ts';

// A clock the test moves, to let a link expire without waiting ten minutes.
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

let t: TestApp;
let owner: string;
let ownerEmail: string;
let meetingId: string;
let otherMeetingId: string;
let audio: Buffer;

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const as = (token: string) => ({ authorization: `Bearer ${token}` });
const linkFor = async (token: string, id = meetingId) => t.app.inject({ method: 'POST', url: `/api/v1/meetings/${id}/audio/link`, headers: as(token) });

beforeAll(async () => {
  t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' }, deps: { clock } });
  ({ token: owner, email: ownerEmail } = await signUpUser(t.app, 'audio-link'));
  const list = MeetingListResponseSchema.parse((await get('/api/v1/meetings', as(owner))).json());
  const [first, second] = list.items;
  meetingId = first!.id;
  otherMeetingId = second!.id;
  // Two seconds of a loud tone, then two of silence: the waveform must show it.
  const file = path.join(t.config.dataDir, 'tone.wav');
  execFileSync('ffmpeg', [
    '-nostdin',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=2',
    '-af',
    'apad=pad_dur=2',
    '-ar',
    '16000',
    '-ac',
    '1',
    file,
  ]);
  audio = fs.readFileSync(file);
  for (const id of [meetingId, otherMeetingId]) {
    const key = t.deps.blobs.newKey('wav');
    fs.mkdirSync(path.dirname(localBlobPath(t.config.dataDir, key)), { recursive: true });
    fs.writeFileSync(localBlobPath(t.config.dataDir, key), audio);
    await t.deps.database.db.updateTable('meetings').set({ audio_key: key, audio_mime: 'audio/wav', audio_bytes: audio.length }).where('id', '=', id).execute();
  }
});
afterAll(() => t.close());

describe('links to a recording for the player', () => {
  it('streams byte ranges through a link its owner asked for, without a bearer token', async () => {
    const link = AudioLinkSchema.parse((await linkFor(owner)).json());
    expect(link.url).toMatch(new RegExp(`^/api/v1/meetings/${meetingId}/audio/stream\\?token=[A-Za-z0-9_-]+$`));
    const expiresIn = Date.parse(link.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(9 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(10 * 60_000);

    // What an <audio> element asks first, then a seek into the middle.
    const first = await get(link.url, { range: 'bytes=0-' });
    expect(first.statusCode).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-${audio.length - 1}/${audio.length}`);
    expect(first.headers['accept-ranges']).toBe('bytes');
    expect(first.headers['content-type']).toBe('audio/wav');
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const seek = await get(link.url, { range: 'bytes=64000-64099' });
    expect(seek.statusCode).toBe(206);
    expect(seek.headers['content-range']).toBe(`bytes 64000-64099/${audio.length}`);
    expect(seek.headers['content-length']).toBe('100');
    expect(seek.rawPayload.equals(audio.subarray(64000, 64100))).toBe(true);
  });

  it('refuses a link that was altered, is for another meeting, or has expired', async () => {
    const link = AudioLinkSchema.parse((await linkFor(owner)).json());
    const token = new URL(link.url, 'http://x').searchParams.get('token')!;
    const refused = { error: { code: 'FORBIDDEN', message: 'This link to the recording has expired or is not valid' } };

    const altered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const url of [`/api/v1/meetings/${meetingId}/audio/stream?token=${altered}`, `/api/v1/meetings/${otherMeetingId}/audio/stream?token=${token}`]) {
      const response = await get(url, { range: 'bytes=0-' });
      expect(response.statusCode, url).toBe(403);
      expect(response.json()).toEqual(refused);
    }
    expect((await get(`/api/v1/meetings/${meetingId}/audio/stream`)).statusCode).toBe(400);
    expect((await get(`/api/v1/meetings/${meetingId}/audio/stream?token=not%20a%20token`)).statusCode).toBe(400);

    offsetMs = 10 * 60_000 + 1000;
    try {
      const expired = await get(link.url, { range: 'bytes=0-' });
      expect(expired.statusCode).toBe(403);
      expect(expired.json()).toEqual(refused);
    } finally {
      offsetMs = 0;
    }
  });

  it('gives no link to someone else or to a caller without a token, and a link stops working when its meeting is deleted', async () => {
    const stranger = (await signUpUser(t.app, 'audio-stranger')).token;
    const strangers = await linkFor(stranger);
    expect(strangers.statusCode).toBe(404);
    expect(strangers.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Meeting not found' } });
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/meetings/${meetingId}/audio/link` })).statusCode).toBe(401);

    const link = AudioLinkSchema.parse((await linkFor(owner, otherMeetingId)).json());
    expect((await get(link.url)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/meetings/${otherMeetingId}`, headers: as(owner) })).statusCode).toBe(200);
    expect((await get(link.url)).statusCode).toBe(404);
  });
});

describe('a link and the session it was issued to', () => {
  it('stops working the moment that session is signed out, while a link of another session still plays', async () => {
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      payload: { email: ownerEmail, password: 'secret12' },
    });
    const laptop = (signIn.json() as { access_token: string }).access_token;
    const laptopLink = AudioLinkSchema.parse((await linkFor(laptop)).json());
    const ownLink = AudioLinkSchema.parse((await linkFor(owner)).json());
    expect((await get(laptopLink.url, { range: 'bytes=0-99' })).statusCode).toBe(206);

    expect((await t.app.inject({ method: 'POST', url: '/auth/v1/logout?scope=local', headers: as(laptop) })).statusCode).toBe(204);
    const afterSignOut = await get(laptopLink.url, { range: 'bytes=0-99' });
    expect(afterSignOut.statusCode).toBe(403);
    expect(afterSignOut.json()).toEqual({ error: { code: 'FORBIDDEN', message: 'This link to the recording has expired or is not valid' } });
    expect((await get(ownLink.url, { range: 'bytes=0-99' })).statusCode).toBe(206);
  });
});

describe('the waveform', () => {
  it('is the loudest sample of each slice and the decoded length, for the owner only', async () => {
    const response = await get(`/api/v1/meetings/${meetingId}/audio/peaks`, as(owner));
    expect(response.statusCode).toBe(200);
    const { peaks, durationSeconds } = AudioPeaksSchema.parse(response.json());
    expect(durationSeconds).toBeCloseTo(4, 1);
    // 50 ms slices: 40 of tone (ffmpeg's sine is at 1/8 of full scale), then 40 of silence.
    expect(peaks).toHaveLength(80);
    expect(Math.min(...peaks.slice(1, 39))).toBeGreaterThan(0.1);
    expect(Math.max(...peaks.slice(41))).toBe(0);

    const stranger = (await signUpUser(t.app, 'peaks-stranger')).token;
    expect((await get(`/api/v1/meetings/${meetingId}/audio/peaks`, as(stranger))).statusCode).toBe(404);
    expect((await get(`/api/v1/meetings/${meetingId}/audio/peaks`)).statusCode).toBe(401);
  });
});
