import { describe, expect, it } from 'vitest';
import { paths } from './paths.ts';

describe('paths', () => {
  it('links a meeting at a moment, and reads the moment back (nonsense reads as none)', () => {
    expect(paths.meeting.href('m-1')).toBe('/meetings/m-1');
    expect(paths.meeting.href('m-1', { t: 754_000 })).toBe('/meetings/m-1?t=754000');
    expect(paths.meeting.href('m-1', { t: -5.4 })).toBe('/meetings/m-1?t=0');
    const momentOf = (search: string) => paths.meeting.momentOf(new URLSearchParams(search));
    expect(momentOf(new URL(`http://x${paths.meeting.href('m-1', { t: 754_000 })}`).search)).toBe(754_000);
    for (const bad of ['', '?t=', '?t=abc', '?t=-1', '?t=1.5', '?t=1e400']) expect(momentOf(bad), bad).toBeUndefined();
  });
});
