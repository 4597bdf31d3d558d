import { describe, expect, it } from 'vitest';
import { createGate } from './avatars.ts';

describe('the avatar decoding gate', () => {
  it('runs one task at a time, lets a few wait their turn in order, and refuses the rest at once', async () => {
    const gate = createGate(1, 2);
    const started: string[] = [];
    const releases: (() => void)[] = [];
    const task = (name: string) => () =>
      new Promise<string>((resolve) => {
        started.push(name);
        releases.push(() => resolve(name));
      });
    const first = gate(task('a'));
    const second = gate(task('b'));
    const third = gate(task('c'));
    await expect(gate(task('d'))).rejects.toMatchObject({ code: 'RATE_LIMITED', message: 'Parley is busy with other pictures. Try again in a minute.' });
    await Promise.resolve();
    expect(started).toEqual(['a']);
    releases[0]!();
    expect(await first).toBe('a');
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a', 'b']);
    releases[1]!();
    expect(await second).toBe('b');
    await new Promise((resolve) => setImmediate(resolve));
    releases[2]!();
    expect(await third).toBe('c');
    expect(started).toEqual(['a', 'b', 'c']);
    // Free again: a new task starts at once.
    const later = gate(async () => 'e');
    expect(await later).toBe('e');
  });

  it('a failing task hands its turn on', async () => {
    const gate = createGate(1, 1);
    const failing = gate(() => Promise.reject(new Error('bad picture')));
    const next = gate(async () => 'next');
    await expect(failing).rejects.toThrow('bad picture');
    expect(await next).toBe('next');
  });
});
