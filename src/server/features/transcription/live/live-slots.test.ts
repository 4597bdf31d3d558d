import { describe, expect, it } from 'vitest';
import { createLiveSlots } from './live-slots.ts';

const settle = () => new Promise((resolve) => setTimeout(resolve));

describe('live-transcription places', () => {
  it('are granted first come, first served; the line is told its places as it moves', async () => {
    const slots = createLiveSlots(2);
    const log: string[] = [];
    const ask = (name: string, count: number) =>
      slots.request(count, { onGranted: () => log.push(`${name} granted`), onPosition: (position) => log.push(`${name} at ${position}`) })!;
    const a = ask('a', 2);
    const b = ask('b', 1);
    const c = ask('c', 1);
    await settle();
    expect(log).toEqual(['a granted', 'b at 1', 'c at 2']);
    expect(slots.used()).toBe(2);

    c.release(); // leaves the line
    a.release();
    a.release(); // twice frees nothing more
    expect(log.slice(3)).toEqual(['b granted']);
    expect(slots.used()).toBe(1);
    b.release();
    expect(slots.used()).toBe(0);
  });

  it('keeps order: a two-place request is not passed by a one-place one behind it', async () => {
    const slots = createLiveSlots(2);
    const granted: string[] = [];
    const ask = (name: string, count: number) => slots.request(count, { onGranted: () => granted.push(name), onPosition: () => undefined })!;
    const a = ask('a', 1);
    ask('b', 2);
    ask('c', 1);
    await settle();
    expect(granted).toEqual(['a']);
    a.release();
    expect(granted).toEqual(['a', 'b']);
  });

  it('refuses what the server could never give', () => {
    expect(createLiveSlots(1).request(2, { onGranted: () => undefined, onPosition: () => undefined })).toBeUndefined();
  });
});
