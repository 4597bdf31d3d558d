import { describe, expect, it } from 'vitest';
import { bidiLines, needsBidi, paragraphDirection, type Measure, type Piece } from './pdf-bidi.ts';

// Every character one point wide, so where lines break is plain to see.
const monospace: Measure = ({ text }) => [...text].length;
const piece = (text: string, label = false): Piece => ({ text, style: 'regular', color: 'black', label });

/** Each line as the strings handed to pdfkit, left to right (a Hebrew run in logical order: fontkit turns it around). */
const layout = (pieces: Piece[], width = 100) => bidiLines(pieces, paragraphDirection(pieces), width, monospace).map((line) => line.map((run) => run.text));

describe('pdf-bidi', () => {
  it('needs the algorithm only for right-to-left text', () => {
    expect(needsBidi('Łódź 会议 Привет 🎉')).toBe(false);
    expect(needsBidi('Hello שלום')).toBe(true);
    expect(needsBidi('مرحبا')).toBe(true);
  });

  it("takes a paragraph's direction from its text, not from the stamp and speaker before it", () => {
    expect(paragraphDirection([piece('[00:10] ', true), piece('Sarah: ', true), piece('שלום')])).toBe('rtl');
    expect(paragraphDirection([piece('[00:10] ', true), piece('שרה: ', true), piece('Hello שלום')])).toBe('ltr');
    expect(paragraphDirection([piece('[00:10] ', true), piece('שרה: ', true), piece('123')])).toBe('rtl');
  });

  it('writes a Hebrew sentence in one run, and a number inside it left to right in its place', () => {
    expect(layout([piece('שלום עולם')])).toEqual([['שלום עולם']]);
    // Left to right: "מוכנה", the space, "2.5", "גרסה " (fontkit turns each Hebrew run around).
    expect(layout([piece('גרסה 2.5 מוכנה')])).toEqual([['מוכנה', ' ', '2.5', 'גרסה ']]);
  });

  it('hands an Arabic run to fontkit whole and in logical order (so it joins the letters), Arabic-Indic digits turned for it', () => {
    expect(layout([piece('مرحبا بالجميع، نبدأ')])).toEqual([['مرحبا بالجميع، نبدأ']]);
    // fontkit reverses anything in Arabic script, digits too: "١٢٣" goes in as "٣٢١" to print as "١٢٣".
    expect(layout([piece('العدد ١٢٣ هنا')])).toEqual([['هنا', ' ', '٣٢١', 'العدد ']]);
  });

  it('mirrors brackets in right-to-left text and keeps a Latin word whole', () => {
    // "(שלום) abc" read right to left: "abc" at the left end, then " (", the word, ")" mirrored.
    expect(layout([piece('(שלום) abc')])).toEqual([['abc', ' (', 'שלום', ')']]);
  });

  it('wraps in logical order: the first words on the first line, trailing spaces left off', () => {
    expect(layout([piece('אחת שתיים שלוש ארבע')], 10)).toEqual([['אחת שתיים'], ['שלוש ארבע']]);
    // "[00:10] אחת" on a right-to-left line: the stamp at the right end, its brackets mirrored back.
    expect(layout([piece('[00:10] ', true), piece('אחת שתיים שלוש')], 12)).toEqual([['אחת', ' [', '00:10', ']'], ['שתיים שלוש']]);
  });

  it('cuts a word longer than the line between characters, and breaks at a newline', () => {
    expect(layout([piece('שלוםשלוםשלום')], 5)).toEqual([['שלוםש'], ['לוםשל'], ['ום']]);
    expect(layout([piece('שלום\nעולם')])).toEqual([['שלום'], ['עולם']]);
  });

  it('keeps an emoji whole at the end of a right-to-left sentence', () => {
    expect(layout([piece('שלום 👍')])).toEqual([['👍', 'שלום ']]);
  });
});
