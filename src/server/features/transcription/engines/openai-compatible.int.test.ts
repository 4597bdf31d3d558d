import fs from 'node:fs';
import path from 'node:path';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MeetingDetail } from '#shared/contracts/meetings.ts';
import { decodeToPcm16k } from '#server/lib/ffmpeg.ts';
import { buildTestApp, findFreePort, signUpUser } from '#tests/support/build-test-app.ts';
import { startFakeSpeechService } from '#tests/support/fake-openai-speech.ts';
import { createFakeSpeakerIdentifier } from '#tests/support/fake-speech.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { createOpenAiCompatibleEngine, TranscriptionServiceError } from './openai-compatible.ts';

const CLIP = path.join(sharedAudioDir(), 'goforward.wav');
let fake: Awaited<ReturnType<typeof startFakeSpeechService>>;
beforeAll(async () => {
  fake = await startFakeSpeechService({ apiKey: 'sk-test' });
});
afterAll(() => fake.close());

const engine = (overrides: { apiKey?: string; timeoutMs?: number; url?: string } = {}) =>
  createOpenAiCompatibleEngine({
    url: overrides.url ?? fake.url,
    apiKey: overrides.apiKey ?? 'sk-test',
    model: 'whisper-1',
    timeoutMs: overrides.timeoutMs ?? 5000,
  });

describe('the OpenAI-compatible engine against a local fake of the protocol', () => {
  it('sends a 16 kHz WAV with the model and asks for segment and word timestamps', async () => {
    fake.behave('ok');
    const pcm = await decodeToPcm16k(CLIP);
    const segments = await engine().transcribe(pcm);
    expect(segments.map((s) => s.text)).toEqual(['go forward ten meters']);
    expect(segments[0]!.words.map((w) => w.text)).toEqual(['go', 'forward', 'ten', 'meters']);
    expect(segments[0]!.startMs).toBe(300);
    const sent = fake.requests.at(-1)!;
    expect(sent).toMatchObject({ model: 'whisper-1', responseFormat: 'verbose_json', granularities: ['segment', 'word'], fileName: 'audio.wav' });
    expect(sent.file.subarray(0, 4).toString()).toBe('RIFF');
    expect(sent.file.readUInt32LE(24)).toBe(16_000);
    expect(sent.file.length).toBe(pcm.length + 44);
    expect(sent.prompt).toBeUndefined();
  });

  it('sends the custom vocabulary as the prompt, as many terms as fit', async () => {
    fake.behave('ok');
    await engine().transcribe(Buffer.alloc(32_000), { vocabulary: ['Anika Okafor', 'Parley'] });
    expect(fake.requests.at(-1)!.prompt).toBe('Glossary: Anika Okafor, Parley.');
    await engine().transcribe(Buffer.alloc(32_000), { vocabulary: Array.from({ length: 200 }, (_, i) => `Term number ${i}`) });
    const long = fake.requests.at(-1)!.prompt!;
    expect(long.length).toBeLessThanOrEqual(600);
    expect(long).toMatch(/^Glossary: Term number 0, Term number 1, .*\.$/);
  });

  it('reports refusals, outages, timeouts and nonsense in words a person can act on', async () => {
    const pcm = Buffer.alloc(32_000);
    await expect(engine({ apiKey: 'wrong' }).transcribe(pcm)).rejects.toThrow(
      'The transcription service refused the audio (HTTP 401: Incorrect API key provided.).',
    );
    fake.behave('overloaded');
    await expect(engine().transcribe(pcm)).rejects.toMatchObject({ status: 503 });
    fake.behave('garbage');
    await expect(engine().transcribe(pcm)).rejects.toThrow('not JSON');
    fake.behave('stall');
    await expect(engine({ timeoutMs: 300 }).transcribe(pcm)).rejects.toThrow('The transcription service did not answer within 300 ms.');
    const closedPort = await findFreePort();
    await expect(engine({ url: `http://127.0.0.1:${closedPort}` }).transcribe(pcm)).rejects.toBeInstanceOf(TranscriptionServiceError);
    fake.behave('ok');
  });

  it('transcribes an uploaded meeting end to end when configured as the engine', async () => {
    fake.behave('ok');
    fake.answer('hello from the speech service');
    const t = await buildTestApp({
      listen: true,
      env: {
        AUTH_AUTOCONFIRM: 'true',
        AUTH_RATE_LIMITS: 'false',
        TRANSCRIBE_ENGINE: 'openai',
        TRANSCRIBE_OPENAI_URL: fake.url,
        TRANSCRIBE_OPENAI_KEY: 'sk-test',
      },
      // Telling speakers apart is not this test's subject: no clustering host process.
      deps: { speech: { speakers: createFakeSpeakerIdentifier() } },
    });
    try {
      const { token } = await signUpUser(t.app, 'openai');
      const auth = { authorization: `Bearer ${token}` };
      const meeting = (await (
        await fetch(`${t.baseUrl}/api/v1/meetings`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'Via the service', source: 'upload' }),
        })
      ).json()) as MeetingDetail;
      await new Promise<void>((resolve, reject) => {
        new tus.Upload(fs.readFileSync(CLIP), {
          endpoint: `${t.baseUrl}/uploads`,
          headers: auth,
          metadata: { meetingId: meeting.id, filetype: 'audio/wav' },
          onSuccess: () => resolve(),
          onError: reject,
        }).start();
      });
      await t.app.transcription.idle();
      const stored = (await (await fetch(`${t.baseUrl}/api/v1/meetings/${meeting.id}`, { headers: auth })).json()) as MeetingDetail;
      expect(stored.status).toBe('ready');
      expect(stored.segments.map((s) => s.text)).toEqual(['Hello from the speech service.']); // with Automatic Punctuation (on by default);
    } finally {
      await t.close();
      fake.answer('go forward ten meters');
    }
  });
});
