import { clockStamp, headingFacts, noteItemFacts, type ExportDocument } from './export-document.ts';
import { fontRuns, type FontStyle } from './pdf-fonts.ts';

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

  const registered = new Set<string>();
  /** Writes text in `style`, font by font; `continued` as pdfkit's: the next write goes on the same paragraph. */
  const write = (text: string, style: FontStyle, options: PDFKit.Mixins.TextOptions = {}) => {
    const runs = fontRuns(text);
    if (runs.length === 0) runs.push({ face: null, text: '' });
    runs.forEach((run, index) => {
      let name = STANDARD[style];
      if (run.face) {
        const file = run.face.files[style];
        name = `${run.face.id}-${style}`;
        if (!registered.has(name)) {
          pdf.registerFont(name, file.path, file.postscriptName);
          registered.add(name);
        }
      }
      const last = index === runs.length - 1;
      pdf.font(name).text(run.text, { ...options, continued: last ? (options.continued ?? false) : true });
    });
    return pdf;
  };

  pdf.fontSize(20);
  write(doc.title, 'bold');
  pdf.moveDown(0.5).fontSize(10);
  for (const fact of headingFacts(doc)) {
    write(`${fact.label}: `, 'bold', { continued: true });
    write(fact.value, 'regular');
  }
  const heading = (title: string) => {
    pdf.moveDown().fontSize(14);
    write(title, 'bold');
    pdf.moveDown(0.3).fontSize(10);
  };
  const stamp = (text: string) => {
    pdf.fillColor('#666666');
    write(`[${text}] `, 'regular', { continued: true });
    pdf.fillColor('black');
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
        pdf.fillColor('#444444');
        write(facts, 'regular', { paragraphGap: 4 });
        pdf.fillColor('black');
      }
    }
  }
  heading('Transcript');
  if (doc.lines.length === 0) write('No transcript yet.', 'italic');
  for (const line of doc.lines) {
    stamp(clockStamp(line.startMs));
    if (line.speaker) write(`${line.speaker}: `, 'bold', { continued: true });
    write(line.text, 'regular', { paragraphGap: 4 });
  }
  pdf.end();
  return done;
}
