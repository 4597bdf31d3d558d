import { clockStamp, headingFacts, noteItemFacts, type ExportDocument } from './export-document.ts';
import { bidiLines, needsBidi, paragraphDirection, type Measure, type Piece } from './pdf-bidi.ts';
import { ascentOf, fontRuns, type FontFace, type FontStyle } from './pdf-fonts.ts';

/** Helvetica's names, for a run no installed font covers (pdfkit's built-in, WinAnsi only). */
const STANDARD: Record<FontStyle, string> = { regular: 'Helvetica', bold: 'Helvetica-Bold', italic: 'Helvetica-Oblique' };

/**
 * PDF through pdfkit: the meeting's facts, its notes, then the transcript. Text is written in runs,
 * each in the first font of pdf-fonts.ts's chain that has its characters; pdfkit embeds a subset of
 * each font used, so the file carries only the glyphs it prints. Loaded on first use.
 */
export async function renderPdf(doc: ExportDocument): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const pdf = new PDFDocument({ size: 'A4', margin: 56, info: { Title: doc.title, Creator: 'Parley' } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });

  // The size in use, which pdfkit keeps to itself; a right-to-left line needs it to place its baseline.
  let size = 12;
  const fontSize = (points: number) => {
    size = points;
    pdf.fontSize(points);
  };

  const registered = new Set<string>();
  /** pdfkit's name for a face in a style, registered on first use (Helvetica when no font is installed). */
  const fontName = (face: FontFace | null, style: FontStyle) => {
    if (!face) return STANDARD[style];
    const file = face.files[style];
    const name = `${face.id}-${style}`;
    if (!registered.has(name)) {
      pdf.registerFont(name, file.path, file.postscriptName);
      registered.add(name);
    }
    return name;
  };

  // A paragraph is gathered piece by piece (stamp, speaker, text) and printed when it ends, because
  // right-to-left text is laid out as a whole paragraph: its direction and order span the pieces.
  let paragraph: Array<Piece & { options: PDFKit.Mixins.TextOptions }> = [];
  let color = 'black';
  /**
   * Writes text in `style`; `continued` as pdfkit's: the next write goes on the same paragraph.
   * `label`: a stamp or a "Name: " before the text, which leaves the paragraph's direction to the text.
   */
  const write = (text: string, style: FontStyle, { label = false, ...options }: PDFKit.Mixins.TextOptions & { label?: boolean } = {}) => {
    paragraph.push({ text, style, color, label, options });
    if (options.continued) return;
    const pieces = paragraph;
    paragraph = [];
    if (pieces.some((p) => needsBidi(p.text))) printBidi(pieces, options.paragraphGap ?? 0);
    else printLeftToRight(pieces);
  };

  /** Left-to-right text as pdfkit lays it out: font by font, wrapped by pdfkit. */
  const printLeftToRight = (pieces: Array<Piece & { options: PDFKit.Mixins.TextOptions }>) => {
    pieces.forEach((piece, pieceIndex) => {
      pdf.fillColor(piece.color);
      const runs = fontRuns(piece.text);
      if (runs.length === 0) runs.push({ face: null, text: '' });
      runs.forEach((run, index) => {
        const last = pieceIndex === pieces.length - 1 && index === runs.length - 1;
        pdf.font(fontName(run.face, piece.style)).text(run.text, { ...piece.options, continued: !last });
      });
    });
    pdf.fillColor('black');
  };

  // Handing pdfkit `features` makes it lay out a run in one piece (without them it lays out word by
  // word, which turns the words of a right-to-left run around); the font's default features still
  // apply, Arabic joining among them.
  const WHOLE_RUN: PDFKit.Mixins.TextOptions = { features: [] };
  // Widths per font and text at 1 pt (a width grows with the size), as a long transcript repeats its words.
  const widths = new Map<string, number>();
  const measure: Measure = (run) => {
    const name = fontName(run.face, run.style);
    const key = `${name}\u0000${run.text}`;
    let width = widths.get(key);
    if (width === undefined) {
      width = pdf.font(name).widthOfString(run.text, WHOLE_RUN) / size;
      widths.set(key, width);
    }
    return width * size;
  };

  /**
   * A paragraph with right-to-left text: wrapped and reordered by pdf-bidi.ts, each visual line
   * written run by run from its left end; a right-to-left paragraph is aligned to the right margin.
   */
  const printBidi = (pieces: Piece[], paragraphGap: number) => {
    const left = pdf.page.margins.left;
    const width = pdf.page.width - left - pdf.page.margins.right;
    const direction = paragraphDirection(pieces);
    const space = fontRuns(' ')[0]?.face ?? null;
    for (const line of bidiLines(pieces, direction, width, measure)) {
      // One baseline for the line's fonts (pdfkit would hang each from its own top), below the tallest.
      const fonts = [{ face: space, style: 'regular' as const }, ...line];
      const height = Math.max(...fonts.map((run) => pdf.font(fontName(run.face, run.style)).currentLineHeight(true)));
      const ascent = Math.max(...fonts.map((run) => ascentOf(run.face, run.style))) * size;
      if (pdf.y + height > pdf.page.maxY()) pdf.addPage();
      const lineWidth = line.reduce((sum, run) => sum + measure(run), 0);
      let x = direction === 'rtl' ? left + width - lineWidth : left;
      const top = pdf.y;
      for (const run of line) {
        pdf.fillColor(run.color);
        pdf.font(fontName(run.face, run.style)).text(run.text, x, top + ascent, { ...WHOLE_RUN, lineBreak: false, baseline: 'alphabetic' });
        x += measure(run);
      }
      pdf.x = left;
      pdf.y = top + height;
    }
    pdf.y += paragraphGap;
    pdf.fillColor('black');
  };

  fontSize(20);
  write(doc.title, 'bold');
  pdf.moveDown(0.5);
  fontSize(10);
  for (const fact of headingFacts(doc)) {
    write(`${fact.label}: `, 'bold', { continued: true, label: true });
    write(fact.value, 'regular');
  }
  const heading = (title: string) => {
    pdf.moveDown();
    fontSize(14);
    write(title, 'bold');
    pdf.moveDown(0.3);
    fontSize(10);
  };
  const stamp = (text: string) => {
    color = '#666666';
    write(`[${text}] `, 'regular', { continued: true, label: true });
    color = 'black';
  };
  if (doc.notes.statusLine) {
    pdf.moveDown();
    write(doc.notes.statusLine, 'italic');
  }
  if (doc.summary) {
    heading('Summary');
    write(doc.summary, 'regular');
  }
  for (const section of doc.notes.sections) {
    heading(section.title);
    for (const item of section.items) {
      stamp(item.stamp);
      const facts = noteItemFacts(item);
      write(item.text, 'regular', { continued: facts !== '', paragraphGap: 4 });
      if (facts) {
        color = '#444444';
        write(facts, 'regular', { paragraphGap: 4 });
        color = 'black';
      }
    }
  }
  heading('Transcript');
  if (doc.lines.length === 0) write('No transcript yet.', 'italic');
  for (const line of doc.lines) {
    stamp(clockStamp(line.startMs));
    if (line.speaker) write(`${line.speaker}: `, 'bold', { continued: true, label: true });
    write(line.text, 'regular', { paragraphGap: 4 });
  }
  pdf.end();
  return done;
}
