import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AudioDecodeError, AudioTooLongError, decodePcmWindows, decodeToPcm16k, measureAudio, type PcmWindow } from './ffmpeg.ts';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-windows-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** 3.5 s of a rising tone: every sample differs from its neighbours, so a misplaced byte shows. */
function sweep(): string {
  const file = path.join(scratch, 'sweep.ogg');
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'aevalsrc=sin(200*t*t):s=16000', '-t', '3.5', '-c:a', 'libopus', file]);
  return file;
}

async function collect(windows: AsyncIterable<PcmWindow>): Promise<PcmWindow[]> {
  const out: PcmWindow[] = [];
  // Copied: a consumer may keep nothing of a window once it asks for the next.
  for await (const w of windows) out.push({ startMs: w.startMs, pcm: Buffer.from(w.pcm) });
  return out;
}

describe('decodePcmWindows', () => {
  it('hands over the whole decoding in windows with their overlap, byte for byte as decoding it whole', async () => {
    const file = sweep();
    const whole = await decodeToPcm16k(file);
    const windows = await collect(decodePcmWindows(file, { windowMs: 1_000, overlapMs: 200 }));
    expect(windows.map((w) => w.startMs)).toEqual([0, 1_000, 2_000, 3_000]);
    expect(windows.slice(0, 3).map((w) => w.pcm.length)).toEqual([1_200 * 32, 1_200 * 32, 1_200 * 32]);
    for (const w of windows) expect(w.pcm.equals(whole.subarray(w.startMs * 32, w.startMs * 32 + w.pcm.length))).toBe(true);
    expect(windows.at(-1)!.startMs * 32 + windows.at(-1)!.pcm.length).toBe(whole.length);
  });

  it('stops ffmpeg past the longest allowed, and says the file is unreadable as decoding whole does', async () => {
    const file = sweep();
    await expect(collect(decodePcmWindows(file, { windowMs: 1_000, overlapMs: 0, maxMs: 2_000 }))).rejects.toBeInstanceOf(AudioTooLongError);
    const junk = path.join(scratch, 'junk.ogg');
    fs.writeFileSync(junk, 'not audio at all');
    await expect(collect(decodePcmWindows(junk, { windowMs: 1_000, overlapMs: 0 }))).rejects.toBeInstanceOf(AudioDecodeError);
  });

  it('ends when the job is cancelled', async () => {
    const controller = new AbortController();
    const windows = decodePcmWindows(sweep(), { windowMs: 1_000, overlapMs: 0, signal: controller.signal });
    await windows.next();
    controller.abort(new Error('cancelled'));
    await expect(windows.next()).rejects.toThrow('cancelled');
  });
});

describe('measureAudio', () => {
  it('measures the decoded length, and stops ffmpeg past the longest allowed (a container that did not say its length)', async () => {
    const file = sweep();
    expect((await measureAudio(file)).durationMs).toBe(3_500);
    expect((await measureAudio(file, { maxMs: 3_600 })).durationMs).toBe(3_500);
    await expect(measureAudio(file, { maxMs: 2_000 })).rejects.toBeInstanceOf(AudioTooLongError);
  });
});
