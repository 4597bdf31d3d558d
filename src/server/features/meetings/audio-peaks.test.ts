import { describe, expect, it } from 'vitest';
import { createPeaksCache, type AudioPeaks } from './audio-peaks.ts';

const deferred = () => {
  let resolve!: (value: AudioPeaks) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<AudioPeaks>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

describe('the waveform cache', () => {
  it('shares one decode between requests, runs at most two at once, and forgets failures', async () => {
    const started: string[] = [];
    const pending = new Map<string, ReturnType<typeof deferred>>();
    const peaksOf = createPeaksCache(
      (key) => {
        started.push(key);
        const d = deferred();
        pending.set(key, d);
        return d.promise;
      },
      { capacity: 2, concurrency: 2 },
    );
    const a1 = peaksOf('a:1', 'a');
    const a2 = peaksOf('a:1', 'a');
    const b = peaksOf('b:1', 'b');
    const c = peaksOf('c:1', 'c');
    await Promise.resolve();
    expect(started).toEqual(['a', 'b']);
    const answer = { peaks: [0.5], durationSeconds: 1 };
    pending.get('a')!.resolve(answer);
    expect(await a1).toBe(answer);
    expect(await a2).toBe(answer);
    await expect.poll(() => started).toEqual(['a', 'b', 'c']);
    pending.get('b')!.reject(new Error('unreadable'));
    await expect(b).rejects.toThrow('unreadable');
    pending.get('c')!.resolve(answer);
    await c;
    peaksOf('b:1', 'b').catch(() => undefined);
    await expect.poll(() => started).toEqual(['a', 'b', 'c', 'b']);
  });
});
