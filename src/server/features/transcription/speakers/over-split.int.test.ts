import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MeetingDetailSchema } from '#shared/contracts/meetings.ts';
import { finalizeRecording } from '#server/features/recordings/finalize-recording.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';

// Issue 13: one reader came out as two or three speakers (a short phrase made a speaker of its
// own), through the whole pipeline as a meeting runs it: the file stored, decoded with the
// meeting's default Noise Reduction, recognised by pocketsphinx, speakers found by clustering.

let t: TestApp;
let token: string;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-over-split-'));
beforeAll(async () => {
  t = await buildTestApp({
    env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', TRANSCRIBE_ENGINE: 'pocketsphinx', TRANSCRIBE_SPEAKERS: 'clustering' },
  });
  ({ token } = await signUpUser(t.app, 'over-split'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** The speakers a person sees on the meeting page once `clip` is imported and transcribed: those with a line. */
async function speakersOf(clip: string): Promise<number> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/meetings',
    headers: { authorization: `Bearer ${token}` },
    payload: { title: clip, source: 'upload' },
  });
  const { id } = created.json() as { id: string };
  const upload = path.join(scratch, clip);
  fs.copyFileSync(path.join(sharedAudioDir(), clip), upload);
  await finalizeRecording(
    { meetings: t.deps.services.meetings, blobs: t.deps.blobs, maxRecordingHours: t.config.transcription.maxRecordingHours },
    { meetingId: id, mimeType: 'audio/wav', bytes: fs.statSync(upload).size, store: (extension, owner) => t.deps.blobs.adopt(upload, extension, owner) },
  );
  await t.app.transcription.enqueue(id);
  await t.app.transcription.idle();
  const meeting = MeetingDetailSchema.parse(
    (await t.app.inject({ method: 'GET', url: `/api/v1/meetings/${id}`, headers: { authorization: `Bearer ${token}` } })).json(),
  );
  expect(meeting.status, meeting.failureReason ?? '').toBe('ready');
  expect(meeting.options.noiseReduction).toBe(true);
  return new Set(meeting.segments.map((s) => s.speakerId)).size;
}

describe('speakers of a transcribed recording', () => {
  // Before: jfk 3 speakers, fw_left 2, librivox 2 (bench speakers-recording, imported).
  it.each(['jfk.wav', 'fw_left.wav', 'librivox_ss_5utt.wav'])('keeps a single voice one speaker: %s', { timeout: 180_000 }, async (clip) => {
    expect(await speakersOf(clip)).toBe(1);
  });

  it('keeps three voices three speakers, the shortest of them talking 2 s (leopard_3spk)', { timeout: 180_000 }, async () => {
    expect(await speakersOf('leopard_3spk.wav')).toBe(3);
  });
});
