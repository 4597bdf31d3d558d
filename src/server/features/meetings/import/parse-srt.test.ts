import { describe, expect, it } from 'vitest';
import { OTTER_SRT } from '#tests/support/transcript-samples.ts';
import { parseSrt } from './parse-srt.ts';

describe('SRT import', () => {
  it('reads an Otter SRT (BOM, Windows line endings, comma milliseconds) with its "Name: " speakers', () => {
    const outcome = parseSrt(OTTER_SRT);
    expect(outcome).toEqual({
      ok: true,
      lines: [
        { speaker: 'Priya Patel', startMs: 1500, endMs: 4250, text: 'Welcome to the design review.' },
        { speaker: 'Tom Becker', startMs: 4800, endMs: 9100, text: 'I shared the new onboarding flow in Figma.' },
        { speaker: 'Priya Patel', startMs: 9600, endMs: 12_000, text: 'Let us test it with five users next week.' },
      ],
    });
  });

  it('reads cues without numbers and with <font> and <i> markup as plain words', () => {
    const outcome = parseSrt('00:00:01,000 --> 00:00:02,000\n<font color="#ffff00">Hello</font> <i>there</i>\n');
    expect(outcome).toEqual({ ok: true, lines: [{ speaker: null, startMs: 1000, endMs: 2000, text: 'Hello there' }] });
  });

  it("refuses a broken timing line at the SRT file's own line number, in SRT's notation", () => {
    const content = '1\n00:00:01,000 --> 00:00:02,000\nHello.\n\n2\n00:00:03,000 -> 00:00:04,000\nBye.\n';
    expect(parseSrt(content)).toEqual({
      ok: false,
      problem: { line: 6, message: 'expected a timestamp like 00:01:02,000 --> 00:01:05,000, found "00:00:03,000 -> 00:00:04,000"' },
    });
    const badDigits = '1\n00:00:01,000 --> 00:00:02,000\nHello.\n\n2\n00:00:03,00 --> 00:00:04,000\nBye.\n';
    expect(parseSrt(badDigits)).toMatchObject({ ok: false, problem: { line: 6 } });
  });
});
