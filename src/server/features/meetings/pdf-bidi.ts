import bidiFactory from 'bidi-js';
import { fontRuns, type FontFace, type FontStyle } from './pdf-fonts.ts';

/**
 * Right-to-left text for the PDF export. pdfkit writes text in logical order and lays it out word by
 * word, so a Hebrew or Arabic line came out with its words swapped and its spaces lost. Here the
 * Unicode Bidirectional Algorithm (bidi-js) resolves each paragraph's embedding levels, lines are
 * wrapped in logical order, then each line is reordered into visual runs that pdfkit writes left to
 * right, one font and one direction each.
 */

const bidi = bidiFactory();

/**
 * A piece of a paragraph in one style and colour, as export-pdf.ts writes it. A label (a time stamp,
 * "Speaker: ") does not decide the paragraph's direction: the text after it does.
 */
export type Piece = { text: string; style: FontStyle; color: string; label?: boolean };

/** One visual run: `text` is what pdfkit is handed so that the glyphs land left to right in reading order. */
export type VisualRun = { text: string; face: FontFace | null; style: FontStyle; color: string };

export type VisualLine = VisualRun[];

export type Direction = 'ltr' | 'rtl';

/** How wide a run prints (in points), in its face and style at the current size. */
export type Measure = (run: { text: string; face: FontFace | null; style: FontStyle }) => number;

const RIGHT_TO_LEFT_TYPES = new Set(['R', 'AL', 'AN', 'RLE', 'RLO', 'RLI']);

/** Whether the text needs the bidirectional algorithm: it has right-to-left characters or controls. */
export function needsBidi(text: string): boolean {
  for (const char of text) if (RIGHT_TO_LEFT_TYPES.has(bidi.getBidiCharTypeName(char))) return true;
  return false;
}

const STRONG_TYPES = new Set(['L', 'R', 'AL']);

/**
 * The direction of a paragraph: its first strong character's (UAX #9 P2–P3), looked for in the text
 * past the labels first, so "[00:10] Sarah: שלום" is a right-to-left line; left to right without one.
 */
export function paragraphDirection(pieces: Piece[]): Direction {
  for (const text of [...pieces.filter((p) => !p.label), ...pieces.filter((p) => p.label)].map((p) => p.text)) {
    for (const char of text) {
      const type = bidi.getBidiCharTypeName(char);
      if (STRONG_TYPES.has(type)) return type === 'L' ? 'ltr' : 'rtl';
    }
  }
  return 'ltr';
}

// fontkit (under pdfkit) reverses the glyphs of a string itself when the string's first character
// of a real script is in one of these (its own list, fontkit 2 Script.direction). The scripts are
// matched here so that every run is handed over in the order that ends up visually right.
const FONTKIT_RTL_SCRIPT =
  /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Cypriot}\p{Script=Kharoshthi}\p{Script=Phoenician}\p{Script=Nko}\p{Script=Lydian}\p{Script=Avestan}\p{Script=Imperial_Aramaic}\p{Script=Inscriptional_Pahlavi}\p{Script=Inscriptional_Parthian}\p{Script=Old_South_Arabian}\p{Script=Old_Turkic}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Meroitic_Cursive}\p{Script=Meroitic_Hieroglyphs}\p{Script=Manichaean}\p{Script=Mende_Kikakui}\p{Script=Nabataean}\p{Script=Old_North_Arabian}\p{Script=Palmyrene}\p{Script=Psalter_Pahlavi}]/u;
const SCRIPTLESS = /^[\p{Script=Common}\p{Script=Inherited}\p{Cn}]$/u;

function fontkitReverses(text: string): boolean {
  for (const char of text) if (!SCRIPTLESS.test(char)) return FONTKIT_RTL_SCRIPT.test(char);
  return false;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The text backwards by user-perceived character (a mark stays on its letter), brackets mirrored when right to left. */
function reversed(text: string, mirror: boolean): string {
  return [...graphemes.segment(text)]
    .map(({ segment }) => (mirror ? (bidi.getMirroredCharacter(segment) ?? segment) : segment))
    .reverse()
    .join('');
}

/**
 * The paragraph's pieces laid out in lines no wider than `maxWidth`, each line's runs in visual order
 * (left to right). Lines break after spaces (a word longer than a line breaks between characters);
 * a line's trailing spaces are not printed, so a right-aligned line ends flush at the margin.
 */
export function bidiLines(pieces: Piece[], direction: Direction, maxWidth: number, measure: Measure): VisualLine[] {
  const text = pieces.map((p) => p.text.replace(/\r\n?/g, '\n')).join('');
  const pieceAt: number[] = [];
  let start = 0;
  for (const [index, piece] of pieces.entries()) {
    const length = piece.text.replace(/\r\n?/g, '\n').length;
    for (let i = 0; i < length; i += 1) pieceAt[start + i] = index;
    start += length;
  }
  const levels = bidi.getEmbeddingLevels(text, direction);

  /** Width of the logical range [from, to): piece by piece, font by font. */
  const widthOf = (from: number, to: number) => {
    let width = 0;
    let at = from;
    while (at < to) {
      let end = at;
      while (end < to && pieceAt[end] === pieceAt[at]) end += 1;
      const style = pieces[pieceAt[at]!]!.style;
      for (const run of fontRuns(text.slice(at, end))) width += measure({ text: run.text, face: run.face, style });
      at = end;
    }
    return width;
  };

  // Break opportunities: after each run of spaces, and at every newline (a forced break).
  const ranges: Array<[number, number]> = [];
  let lineStart = 0;
  let lineWidth = 0;
  const tokens = [...text.matchAll(/[^\s]*[^\S\n]*\n?/g)].filter((m) => m[0] !== '');
  for (const token of tokens) {
    const from = token.index;
    const to = from + token[0].length;
    const trimmedTo = from + token[0].trimEnd().length;
    const wordWidth = widthOf(from, trimmedTo);
    if (from > lineStart && lineWidth + wordWidth > maxWidth) {
      ranges.push([lineStart, from]);
      lineStart = from;
      lineWidth = 0;
    }
    if (from === lineStart && wordWidth > maxWidth) {
      // A word wider than the whole line: cut it between characters.
      for (const { index, segment } of graphemes.segment(text.slice(from, trimmedTo))) {
        const at = from + index;
        if (at > lineStart && widthOf(lineStart, at + segment.length) > maxWidth) {
          ranges.push([lineStart, at]);
          lineStart = at;
        }
      }
      lineWidth = widthOf(lineStart, to);
    } else {
      lineWidth += widthOf(from, to);
    }
    if (token[0].endsWith('\n')) {
      ranges.push([lineStart, to]);
      lineStart = to;
      lineWidth = 0;
    }
  }
  if (lineStart < text.length || ranges.length === 0) ranges.push([lineStart, text.length]);

  return ranges.map(([from, to]) => {
    let end = to;
    while (end > from && /\s/.test(text[end - 1]!)) end -= 1;
    return end > from ? visualRuns(text, levels, pieces, pieceAt, from, end) : [];
  });
}

/** The logical range [from, to) of one line as runs in visual order. */
function visualRuns(
  text: string,
  levels: ReturnType<typeof bidi.getEmbeddingLevels>,
  pieces: Piece[],
  pieceAt: number[],
  from: number,
  to: number,
): VisualRun[] {
  // UAX #9 L2: reverse each segment the algorithm names, in turn.
  const order = Array.from({ length: to - from }, (_, i) => from + i);
  for (const [first = from, last = from] of bidi.getReorderSegments(text, levels, from, to - 1)) {
    const reversedPart = order.slice(first - from, last - from + 1).reverse();
    order.splice(first - from, reversedPart.length, ...reversedPart);
  }
  // Consecutive characters of one level and one piece form a run (logically contiguous by construction).
  const groups: Array<{ from: number; to: number; rtl: boolean; piece: number }> = [];
  for (const index of order) {
    const rtl = levels.levels[index]! % 2 === 1;
    const last = groups.at(-1);
    const piece = pieceAt[index]!;
    if (last && last.rtl === rtl && last.piece === piece && levels.levels[index] === levels.levels[rtl ? last.from : last.to - 1]) {
      if (rtl && index === last.from - 1) {
        last.from = index;
        continue;
      }
      if (!rtl && index === last.to) {
        last.to = index + 1;
        continue;
      }
    }
    groups.push({ from: index, to: index + 1, rtl, piece });
  }
  const runs: VisualRun[] = [];
  for (const group of groups) {
    const { style, color } = pieces[group.piece]!;
    const fonts = fontRuns(text.slice(group.from, group.to));
    if (group.rtl) fonts.reverse();
    for (const run of fonts) {
      // Handed to fontkit in logical order when it reverses the run itself (and shapes Arabic
      // joining in that order); otherwise turned around here.
      const printed = fontkitReverses(run.text) === group.rtl ? run.text : reversed(run.text, group.rtl);
      runs.push({ text: printed, face: run.face, style, color });
    }
  }
  return runs;
}
