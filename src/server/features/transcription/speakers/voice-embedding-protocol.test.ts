import { describe, expect, it } from 'vitest';
import { MAX_VOICE_SPEECH_MS, voicesInput } from './voice-embedding-protocol.ts';

/** PCM whose every 16-bit sample holds the millisecond it lies in (16 samples a millisecond). */
function clock(ms: number): Buffer {
  const pcm = Buffer.alloc(ms * 32);
  for (let i = 0; i < ms * 16; i++) pcm.writeInt16LE(Math.floor(i / 16) % 32768, i * 2);
  return pcm;
}
const msAt = (bytes: Uint8Array, ms: number) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).readInt16LE(ms * 32);

describe('the speech sent to describe voices', () => {
  it('lays each speaker\u2019s turns end to end, in order, and says where each speaker\u2019s part lies', () => {
    const input = voicesInput(clock(1000), [
      [
        { startMs: 500, endMs: 600 },
        { startMs: 100, endMs: 200 },
      ],
      [{ startMs: 300, endMs: 350 }],
    ]);
    expect(input.speakers).toEqual([
      [
        { startMs: 0, endMs: 100 },
        { startMs: 100, endMs: 200 },
      ],
      [{ startMs: 200, endMs: 250 }],
    ]);
    expect(input.voices.byteLength).toBe(250 * 32);
    expect([msAt(input.voices, 0), msAt(input.voices, 99), msAt(input.voices, 100), msAt(input.voices, 200)]).toEqual([100, 199, 500, 300]);
  });

  it('keeps a turn inside the recording, and at most MAX_VOICE_SPEECH_MS of one speaker', () => {
    const long = voicesInput(Buffer.alloc((MAX_VOICE_SPEECH_MS + 60_000) * 32), [
      [
        { startMs: 0, endMs: MAX_VOICE_SPEECH_MS - 1000 },
        { startMs: MAX_VOICE_SPEECH_MS, endMs: MAX_VOICE_SPEECH_MS + 50_000 },
      ],
      [{ startMs: MAX_VOICE_SPEECH_MS + 59_000, endMs: MAX_VOICE_SPEECH_MS + 99_000 }],
    ]);
    expect(long.speakers[0]!.at(-1)!.endMs).toBe(MAX_VOICE_SPEECH_MS);
    expect(long.speakers[1]).toEqual([{ startMs: MAX_VOICE_SPEECH_MS, endMs: MAX_VOICE_SPEECH_MS + 1000 }]);
  });
});
