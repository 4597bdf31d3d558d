import { describe, expect, it } from 'vitest';
import { splitPoint } from './transcript-view.tsx';

describe('splitPoint (where "Split here" cuts a line)', () => {
  it('cuts at the space nearest the caret, so a line is split between words', () => {
    const text = 'we ship on friday';
    expect(splitPoint(text, 4)).toBe(2); // "sh|ip": the space before "ship" is nearer than the one after
    expect(splitPoint(text, 6)).toBe(7);
    expect(splitPoint(text, 0)).toBe(2);
    expect(splitPoint(text, text.length)).toBe(10);
  });

  it('never leaves one side empty: no cut for a single word or at outer spaces', () => {
    expect(splitPoint('hello', 2)).toBeUndefined();
    expect(splitPoint(' hello ', 0)).toBeUndefined();
    expect(splitPoint(' a b ', 0)).toBe(2);
  });
});
