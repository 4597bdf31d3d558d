import { describe, expect, it } from 'vitest';
import { parseRange } from './byte-range.ts';

describe('parseRange', () => {
  it('reads a closed, an open and a suffix range', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({ kind: 'partial', start: 0, end: 99 });
    expect(parseRange('bytes=900-', 1000)).toEqual({ kind: 'partial', start: 900, end: 999 });
    expect(parseRange('bytes=-100', 1000)).toEqual({ kind: 'partial', start: 900, end: 999 });
  });

  it('clamps an end past the file and a suffix longer than it', () => {
    expect(parseRange('bytes=500-5000', 1000)).toEqual({ kind: 'partial', start: 500, end: 999 });
    expect(parseRange('bytes=-5000', 1000)).toEqual({ kind: 'partial', start: 0, end: 999 });
  });

  it('reports a range that starts past the end as unsatisfiable', () => {
    expect(parseRange('bytes=1000-', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
  });

  it('ignores what it does not understand and sends the whole file', () => {
    for (const header of [undefined, '', 'items=0-1', 'bytes=abc', 'bytes=5-1', 'bytes=0-1,5-9', 'bytes=-']) {
      expect(parseRange(header, 1000)).toEqual({ kind: 'full' });
    }
  });
});
