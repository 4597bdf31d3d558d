import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MeetingDetailSchema, MeetingListResponseSchema } from '#shared/contracts/meetings.ts';
import { CreatedShareLinkSchema } from '#shared/contracts/sharing.ts';
import { localBlobPath } from '#server/lib/blob-store.ts';
import { replaceTranscript } from '#server/features/meetings/meetings.repository.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { autoDeleteCutoff, createAutoDeleteSweeper } from './auto-delete.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' } });
});
afterAll(() => t.close());

const DAY = 24 * 60 * 60 * 1000;
/** The sweep's clock, set by each test: "now" is as many days after the meetings were made as it says. */
let clock = new Date();
const sweeper = () => createAutoDeleteSweeper({ meetings: t.deps.services.meetings, settings: t.deps.services.settings, log: t.deps.log, now: () => clock });
const daysLater = (days: number) => new Date(Date.now() + days * DAY);

const newUser = async () => (await signUpUser(t.app, 'auto-delete')).token;

const call = (token: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });

const chooseAutoDelete = async (token: string, autoDelete: string) =>
  expect((await call(token, 'PUT', '/api/v1/settings/privacy', { autoDelete })).statusCode).toBe(200);

/** A finished meeting as a recording leaves it: real audio in the blob store, a transcript, ready. */
async function recordedMeeting(token: string, title: string, status: 'ready' | 'processing' = 'ready') {
  const meeting = MeetingDetailSchema.parse((await call(token, 'POST', '/api/v1/meetings', { title })).json());
  const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'auto-delete-')), 'clip.wav');
  fs.copyFileSync(path.join(sharedAudioDir(), 'goforward.wav'), copy);
  const audioKey = await t.deps.blobs.adopt(copy, 'wav', { ownerId: meeting.owner!.id, kind: 'recording' });
  const db = t.deps.database.db;
  await db
    .updateTable('meetings')
    .set({ audio_key: audioKey, audio_mime: 'audio/wav', audio_bytes: fs.statSync(localBlobPath(t.config.dataDir, audioKey)).size, status })
    .where('id', '=', meeting.id)
    .execute();
  await replaceTranscript(db, meeting.id, {
    speakers: [{ label: 'Speaker 1' }],
    segments: [{ speaker: 0, startMs: 0, endMs: 2000, text: `Go forward ten meters for ${title}.` }],
  });
  return { id: meeting.id, audioKey };
}

const titles = async (token: string) =>
  MeetingListResponseSchema.parse((await call(token, 'GET', '/api/v1/meetings?pageSize=100')).json()).items.map((m) => m.title);

describe('auto-delete recordings (Settings › Privacy)', () => {
  it('deletes a person’s meetings older than the period they chose, with audio, transcript and share links; keeps samples and newer ones', async () => {
    const token = await newUser();
    await chooseAutoDelete(token, '30days');
    const old = await recordedMeeting(token, 'Zeppelin hangar planning');
    const share = CreatedShareLinkSchema.parse((await call(token, 'POST', `/api/v1/meetings/${old.id}/share`)).json());
    expect((await call(token, 'GET', `/api/v1/meetings/${old.id}/audio`)).statusCode).toBe(200);
    const samplesBefore = (await titles(token)).filter((title) => title !== 'Zeppelin hangar planning');
    expect(samplesBefore).toHaveLength(6);

    const found = MeetingListResponseSchema.parse((await call(token, 'GET', '/api/v1/meetings?q=zeppelin')).json());
    expect(found.items.map((m) => m.id)).toEqual([old.id]);

    // 29 days on, nothing is old enough yet.
    clock = daysLater(29);
    expect(await sweeper().runOnce()).toEqual({ deleted: 0 });
    expect(await titles(token)).toContain('Zeppelin hangar planning');

    clock = daysLater(31);
    expect(await sweeper().runOnce()).toEqual({ deleted: 1 });
    expect(await titles(token)).toEqual(samplesBefore); // the six sample meetings stay, however old
    expect((await call(token, 'GET', `/api/v1/meetings/${old.id}`)).statusCode).toBe(404);
    expect((await call(token, 'GET', `/api/v1/meetings/${old.id}/audio`)).statusCode).toBe(404);
    expect(fs.existsSync(localBlobPath(t.config.dataDir, old.audioKey))).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: share.url.replace(/^.*\/shared\//, '/api/v1/shared/') })).statusCode).toBe(404);
    const search = MeetingListResponseSchema.parse((await call(token, 'GET', '/api/v1/meetings?q=zeppelin')).json());
    expect(search.items).toEqual([]);
    const segments = await t.deps.database.db.selectFrom('transcript_segments').select('id').where('meeting_id', '=', old.id).execute();
    expect(segments).toEqual([]);
  });

  it('follows each person’s own choice: the 90-day default, 1 year, and never', async () => {
    const byDefault = await newUser();
    const yearly = await newUser();
    const never = await newUser();
    await chooseAutoDelete(yearly, '1year');
    await chooseAutoDelete(never, 'never');
    for (const token of [byDefault, yearly, never]) await recordedMeeting(token, 'Design review');

    clock = daysLater(89);
    await sweeper().runOnce();
    expect(await titles(byDefault)).toContain('Design review');

    clock = daysLater(91);
    await sweeper().runOnce();
    expect(await titles(byDefault)).not.toContain('Design review');
    expect(await titles(yearly)).toContain('Design review');

    clock = daysLater(366);
    await sweeper().runOnce();
    expect(await titles(yearly)).not.toContain('Design review');
    expect(await titles(never)).toContain('Design review');

    clock = daysLater(3650);
    await sweeper().runOnce();
    expect(await titles(never)).toContain('Design review');
  });

  it('never deletes a meeting whose transcription is still running, and takes it once it has finished', async () => {
    const token = await newUser();
    await chooseAutoDelete(token, '30days');
    const busy = await recordedMeeting(token, 'Long all-hands', 'processing');
    clock = daysLater(40);
    await sweeper().runOnce();
    expect(await titles(token)).toContain('Long all-hands');
    await t.deps.database.db.updateTable('meetings').set({ status: 'ready' }).where('id', '=', busy.id).execute();
    await sweeper().runOnce();
    expect(await titles(token)).not.toContain('Long all-hands');
  });

  it('runs one sweep at a time, and stop() waits for the one under way', async () => {
    const token = await newUser();
    await chooseAutoDelete(token, '30days');
    await recordedMeeting(token, 'Retro');
    clock = daysLater(45);
    const sweep = sweeper();
    const [first, second] = await Promise.all([sweep.runOnce(), sweep.runOnce()]);
    expect(first).toEqual({ deleted: 1 });
    expect(second).toBe(first); // joined, not run twice
    sweep.start();
    await sweep.stop();
    expect(await titles(token)).not.toContain('Retro');
  });
});

describe('autoDeleteCutoff', () => {
  it('counts 30 and 90 days back, a calendar year for 1 year, and nothing for never', () => {
    const now = new Date('2027-03-01T12:00:00.000Z');
    expect(autoDeleteCutoff('30days', now)?.toISOString()).toBe('2027-01-30T12:00:00.000Z');
    expect(autoDeleteCutoff('90days', now)?.toISOString()).toBe('2026-12-01T12:00:00.000Z');
    expect(autoDeleteCutoff('1year', now)?.toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(autoDeleteCutoff('never', now)).toBeNull();
  });
});
