import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MeetingDetailSchema, type MeetingDetail } from '#shared/contracts/meetings.ts';
import { finalizeRecording } from '#server/features/recordings/finalize-recording.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';

let t: TestApp;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-sources-'));
beforeAll(async () => {
  t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', TRANSCRIBE_ENGINE: 'pocketsphinx' } });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('a recording with one channel per capture source', () => {
  it('makes each source its own speaker, named after it, merged in time order', { timeout: 60_000 }, async () => {
    // Left: the microphone says "go forward ten meters"; right, three seconds in: the shared tab reads a sentence.
    const file = path.join(scratch, 'two-sources.webm');
    execFileSync('ffmpeg', [
      '-nostdin',
      '-loglevel',
      'error',
      '-y',
      '-i',
      path.join(sharedAudioDir(), 'goforward.wav'),
      '-i',
      path.join(sharedAudioDir(), 'librispeech_mr_quilter.wav'),
      '-filter_complex',
      '[0:a]aformat=sample_rates=16000:channel_layouts=mono,apad=whole_dur=10[l];[1:a]aformat=sample_rates=16000:channel_layouts=mono,adelay=3000,apad=whole_dur=10[r];[l][r]join=inputs=2:channel_layout=stereo,atrim=0:10[out]',
      '-map',
      '[out]',
      '-ar',
      '48000',
      '-c:a',
      'libopus',
      file,
    ]);
    const { token } = await signUpUser(t.app, 'sources');
    // As /record creates it when a tab's audio is shared next to the microphone.
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/meetings',
      headers: { authorization: `Bearer ${token}` },
      payload: { title: 'Call', source: 'mic', audioSources: ['Microphone', 'Shared tab'] },
    });
    const { id, audioSources } = created.json() as { id: string; audioSources: string[] };
    expect(audioSources).toEqual(['Microphone', 'Shared tab']);
    for (const bad of [['Microphone'], ['a', 'b', 'c'], ['', 'x']]) {
      const refused = await t.app.inject({
        method: 'POST',
        url: '/api/v1/meetings',
        headers: { authorization: `Bearer ${token}` },
        payload: { title: 'x', audioSources: bad },
      });
      expect(refused.statusCode).toBe(400);
    }
    const upload = path.join(scratch, 'upload.webm');
    fs.copyFileSync(file, upload);
    await finalizeRecording(
      { meetings: t.deps.services.meetings, blobs: t.deps.blobs, maxRecordingHours: t.config.transcription.maxRecordingHours },
      { meetingId: id, mimeType: 'audio/webm', bytes: fs.statSync(file).size, store: (extension, owner) => t.deps.blobs.adopt(upload, extension, owner) },
    );
    await t.app.transcription.enqueue(id);
    await t.app.transcription.idle();

    const meeting = MeetingDetailSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/v1/meetings/${id}`, headers: { authorization: `Bearer ${token}` } })).json(),
    ) as MeetingDetail;
    expect(meeting.status).toBe('ready');
    expect(meeting.speakers.map((s) => s.displayName)).toEqual(['Microphone', 'Shared tab']);
    const [mic, tab] = meeting.speakers;
    const first = meeting.segments[0]!;
    expect(first.speakerId).toBe(mic!.id);
    expect(first.text.toLowerCase()).toContain('go forward ten meters');
    const tabText = meeting.segments
      .filter((s) => s.speakerId === tab!.id)
      .map((s) => s.text.toLowerCase())
      .join(' ');
    expect(tabText).toMatch(/quilter|apostle|middle classes/);
    expect(meeting.segments.filter((s) => s.speakerId === tab!.id).every((s) => s.startMs >= 2500)).toBe(true);
  });
});
