import { describe, expect, it } from 'vitest';
import { StageTimeoutError, stageLimitMs, withinLimit } from './stage-limits.ts';

describe('stage time limits', () => {
  it('grow with the recording above their floor', () => {
    const limit = { floorMs: 10 * 60_000, perAudioSecondMs: 3_000 };
    expect(stageLimitMs(limit, 30_000)).toBe(10 * 60_000);
    expect(stageLimitMs(limit, 2 * 3_600_000)).toBe(6 * 3_600_000);
  });

  it('end a stage whose work never settles nor looks at its signal, saying which stage and its limit', async () => {
    const never = withinLimit(
      'identifying speakers',
      { floorMs: 20, perAudioSecondMs: 0 },
      90 * 60_000,
      new AbortController().signal,
      () => new Promise<never>(() => {}),
    );
    await expect(never).rejects.toBeInstanceOf(StageTimeoutError);
    await expect(never).rejects.toThrow('Transcription stopped: identifying speakers took longer than 1 s, its limit for a recording of 1 h 30 min.');
  });

  it('say so when the limit was of one window of a longer recording', async () => {
    const window = withinLimit(
      'transcribing',
      { floorMs: 20, perAudioSecondMs: 0 },
      10.5 * 60_000,
      new AbortController().signal,
      () => new Promise<never>(() => {}),
      { part: true },
    );
    await expect(window).rejects.toThrow('Transcription stopped: transcribing took longer than 1 s, its limit for 11 min of the recording.');
  });

  it('hand the work a signal that aborts at the limit, and keep a cancelled job cancelled', async () => {
    let seen: AbortSignal | undefined;
    const stopped = withinLimit('decoding', { floorMs: 20, perAudioSecondMs: 0 }, 5_000, new AbortController().signal, (signal) => {
      seen = signal;
      return new Promise<never>(() => {});
    });
    await expect(stopped).rejects.toThrow('Transcription stopped: decoding took longer than 1 s, its limit for a recording of 5 s.');
    expect(seen?.aborted).toBe(true);

    const job = new AbortController();
    const cancelled = withinLimit('transcribing', { floorMs: 60_000, perAudioSecondMs: 0 }, 5_000, job.signal, () => new Promise<never>(() => {}));
    job.abort(new Error('cancelled'));
    await expect(cancelled).rejects.toThrow('cancelled');
  });

  it('answer what the work answers within the limit', async () => {
    await expect(withinLimit('transcribing', { floorMs: 60_000, perAudioSecondMs: 0 }, 5_000, new AbortController().signal, async () => 42)).resolves.toBe(42);
  });
});
