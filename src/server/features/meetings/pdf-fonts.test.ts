import { describe, expect, it } from 'vitest';
import { fontRuns } from './pdf-fonts.ts';

const runsOf = (text: string) => fontRuns(text).map((run) => [run.face?.id ?? null, run.text]);

describe('the PDF font chain', () => {
  it('gives each script the first font that has it, spaces staying with the run they are in', () => {
    expect(runsOf('Łódź Привет Καλημέρα 会議 회의 🎉👍 ok')).toEqual([
      ['noto-sans', 'Łódź Привет Καλημέρα '],
      ['noto-sans-cjk', '会議 회의 '],
      ['symbola', '🎉👍 '],
      ['noto-sans', 'ok'],
    ]);
  });

  it('keeps combining marks with their letter and drops invisible format characters', () => {
    expect(runsOf('Cafe\u0301\u200b!')).toEqual([['noto-sans', 'Cafe\u0301!']]);
    expect(runsOf('👍\ufe0f')).toEqual([['symbola', '👍\ufe0f']]);
  });

  it('finds the other scripts in the installed Noto fonts', () => {
    expect(runsOf('नमस्ते')).toEqual([['NotoSansDevanagari-Regular.ttf', 'नमस्ते']]);
    expect(runsOf('สวัสดี')).toEqual([['NotoSansThai-Regular.ttf', 'สวัสดี']]);
  });
});
