import fs from 'node:fs';
import path from 'node:path';
import * as fontkit from 'fontkit';

/**
 * The fonts a PDF export prints with, and which of them prints each character. PDF's standard
 * Helvetica knows WinAnsi only, so "Łódź", Cyrillic, Greek, CJK and emoji came out as mojibake;
 * instead Parley embeds (subsets of) the Debian fonts scripts/system-packages.mjs installs, choosing
 * per run of characters the first font of a chain that has them:
 *   Noto Sans (Latin, Greek, Cyrillic) → DejaVu Sans (symbols, arrows, box drawing) → Noto Sans CJK
 *   (Chinese, Japanese, Korean) → Symbola (emoji, monochrome: PDF text cannot carry colour
 *   bitmaps) → any other Noto Sans script font that has the character (Arabic, Hebrew, Devanagari,
 *   Thai, …: looked up only when one of those characters turns up, then remembered). Hebrew and
 *   Arabic go to their Noto Sans fonts first (right-to-left order: pdf-bidi.ts).
 */

export type FontStyle = 'regular' | 'bold' | 'italic';

/** One font file (a collection's member named by its PostScript name) as pdfkit registers it. */
export type FontFile = { path: string; postscriptName?: string };

export type FontFace = { id: string; files: Record<FontStyle, FontFile> };

export type TextRun = { face: FontFace | null; text: string };

const NOTO = '/usr/share/fonts/truetype/noto';
const NOTO_CJK = '/usr/share/fonts/opentype/noto';
const DEJAVU = '/usr/share/fonts/truetype/dejavu';
const SYMBOLA = '/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf';

const face = (id: string, regular: FontFile, bold: FontFile = regular, italic: FontFile = regular): FontFace => ({ id, files: { regular, bold, italic } });

const PRIMARY_CHAIN: FontFace[] = [
  face('noto-sans', { path: `${NOTO}/NotoSans-Regular.ttf` }, { path: `${NOTO}/NotoSans-Bold.ttf` }, { path: `${NOTO}/NotoSans-Italic.ttf` }),
  face('dejavu-sans', { path: `${DEJAVU}/DejaVuSans.ttf` }, { path: `${DEJAVU}/DejaVuSans-Bold.ttf` }, { path: `${DEJAVU}/DejaVuSans-Oblique.ttf` }),
  face(
    'noto-sans-cjk',
    { path: `${NOTO_CJK}/NotoSansCJK-Regular.ttc`, postscriptName: 'NotoSansCJKsc-Regular' },
    { path: `${NOTO_CJK}/NotoSansCJK-Bold.ttc`, postscriptName: 'NotoSansCJKsc-Bold' },
  ),
  face('symbola', { path: SYMBOLA }),
];

type Coverage = { hasGlyphForCodePoint: (codePoint: number) => boolean; ascent: number; unitsPerEm: number };

const coverageCache = new Map<string, Coverage | null>();

/** The font's character map, opened once per process (the document host lives on between exports). */
function coverageOf(file: FontFile): Coverage | null {
  const key = `${file.path}#${file.postscriptName ?? ''}`;
  if (!coverageCache.has(key)) {
    let coverage: Coverage | null = null;
    if (fs.existsSync(file.path)) {
      const opened = fontkit.openSync(file.path, file.postscriptName);
      // A collection without the named member answers the collection itself, which has no cmap.
      coverage = 'hasGlyphForCodePoint' in opened ? opened : null;
    }
    coverageCache.set(key, coverage);
  }
  return coverageCache.get(key) ?? null;
}

/**
 * How far above the baseline the face's lines reach, as a fraction of the font size (pdfkit's
 * ascender): where a line's baseline goes when its runs are written at one shared baseline.
 */
export function ascentOf(fontFace: FontFace | null, style: FontStyle): number {
  const font = fontFace ? coverageOf(fontFace.files[style]) : null;
  // Helvetica's ascender (pdfkit's AFM), for when no font is installed.
  return font ? font.ascent / font.unitsPerEm : 0.718;
}

let installedChain: FontFace[] | undefined;

/** The primary chain's faces whose files are installed (all of them wherever `npm start` ran). */
function chain(): FontFace[] {
  installedChain ??= PRIMARY_CHAIN.filter((f) => coverageOf(f.files.regular) !== null);
  return installedChain;
}

let scriptFaces: FontFace[] | undefined;

/** Every other Noto Sans script font installed, read only when the primary chain lacks a character. */
function otherScriptFaces(): FontFace[] {
  if (scriptFaces) return scriptFaces;
  const names = fs.existsSync(NOTO) ? fs.readdirSync(NOTO) : [];
  scriptFaces = names
    .filter((name) => /^NotoSans[A-Z][A-Za-z]*-Regular\.ttf$/.test(name) && !name.startsWith('NotoSansDisplay') && !name.startsWith('NotoSansMono'))
    .sort()
    .map((name) => {
      const bold = name.replace('-Regular', '-Bold');
      return face(name, { path: path.join(NOTO, name) }, names.includes(bold) ? { path: path.join(NOTO, bold) } : undefined);
    });
  return scriptFaces;
}

// Hebrew and Arabic (with their punctuation) print in Noto Sans Hebrew and Noto Sans Arabic, drawn
// for them with their joining forms and ligatures, although DejaVu Sans in the primary chain has them too.
const RIGHT_TO_LEFT = /^[\p{Script_Extensions=Hebrew}\p{Script_Extensions=Arabic}]$/u;

// Which face prints each character, worked out once per process (a two-hour transcript repeats a few hundred).
const faceCache = new Map<number, FontFace | null>();

function faceFor(codePoint: number): FontFace | null {
  let found = faceCache.get(codePoint);
  if (found === undefined) {
    const has = (candidate: FontFace) => coverageOf(candidate.files.regular)?.hasGlyphForCodePoint(codePoint) ?? false;
    found =
      (RIGHT_TO_LEFT.test(String.fromCodePoint(codePoint)) ? otherScriptFaces().find(has) : undefined) ??
      chain().find(has) ??
      otherScriptFaces().find(has) ??
      null;
    faceCache.set(codePoint, found);
  }
  return found;
}

const isVariationSelector = (codePoint: number) => codePoint >= 0xfe00 && codePoint <= 0xfe0f;
const isJoiner = (codePoint: number) => codePoint === 0x200c || codePoint === 0x200d;
// Marks, joiners and variation selectors belong to the character before them: "é" written as e + ◌́,
// a Devanagari vowel sign, 👍 + U+FE0F. Splitting them off would print them apart from their letter.
const clings = (char: string, codePoint: number) => /^\p{M}$/u.test(char) || isJoiner(codePoint) || isVariationSelector(codePoint);
// Spaces and the like are in every font: they stay with the run around them instead of starting one.
const NEUTRAL = /^[\s\u00a0]$/u;
// Invisible format characters a font may lack; they are left out rather than printed as a box.
const invisible = (codePoint: number) =>
  (codePoint >= 0x200b && codePoint <= 0x200f) || codePoint === 0x2060 || codePoint === 0xfeff || isVariationSelector(codePoint);

/**
 * The text cut into runs that one font each prints. A character no font has stays with the first
 * font (it prints as that font's empty box, not as another character); `face` is null only when none
 * of the fonts is installed, and pdfkit's Helvetica prints the run.
 */
export function fontRuns(text: string): TextRun[] {
  const runs: TextRun[] = [];
  const fonts = chain();
  const primary = fonts[0] ?? null;
  for (const char of text) {
    const last = runs.at(-1);
    const codePoint = char.codePointAt(0)!;
    if (last && (NEUTRAL.test(char) || clings(char, codePoint))) {
      const printable = !invisible(codePoint) || (last.face !== null && coverageOf(last.face.files.regular)?.hasGlyphForCodePoint(codePoint));
      if (printable) last.text += char;
      continue;
    }
    if (invisible(codePoint)) continue;
    const chosen = NEUTRAL.test(char) ? primary : (faceFor(codePoint) ?? primary);
    if (last && last.face === chosen) last.text += char;
    else runs.push({ face: chosen, text: char });
  }
  return runs;
}
