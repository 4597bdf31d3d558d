import { describe, expect, it } from 'vitest';
import { weekStartOf } from './analytics.ts';

describe('weekStartOf', () => {
  it('is Monday 00:00 in the person’s zone', () => {
    // Sunday 2026-11-22 23:30 UTC is already Monday 00:30 in Berlin (UTC+1, offset -60).
    const sundayNight = new Date('2026-11-22T23:30:00Z');
    expect(weekStartOf(sundayNight, 0).toISOString()).toBe('2026-11-16T00:00:00.000Z');
    expect(weekStartOf(sundayNight, -60).toISOString()).toBe('2026-11-22T23:00:00.000Z');
    // New York (UTC-5, offset 300): Monday 03:00 UTC is still Sunday evening there.
    expect(weekStartOf(new Date('2026-11-23T03:00:00Z'), 300).toISOString()).toBe('2026-11-16T05:00:00.000Z');
  });
});
