import { clockStamp, headingFacts, noteItemFacts, type ExportDocument } from './export-document.ts';

/**
 * PDF through pdfkit: the meeting's facts, its notes, then the transcript. The built-in Helvetica
 * means no font files have to ship with Parley.
 * Helvetica covers Latin-1 (WinAnsi) only; characters outside it print as placeholders, which is
 * why TXT and DOCX are the formats to pick for other scripts. Loaded on first use.
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

  pdf.font('Helvetica-Bold').fontSize(20).text(doc.title);
  pdf.moveDown(0.5).fontSize(10);
  for (const fact of headingFacts(doc)) pdf.font('Helvetica-Bold').text(`${fact.label}: `, { continued: true }).font('Helvetica').text(fact.value);
  const heading = (title: string) => pdf.moveDown().font('Helvetica-Bold').fontSize(14).text(title).moveDown(0.3).font('Helvetica').fontSize(10);
  const stamp = (text: string) => pdf.font('Helvetica').fillColor('#666666').text(`[${text}] `, { continued: true }).fillColor('black');
  if (doc.notes.statusLine) pdf.moveDown().font('Helvetica-Oblique').text(doc.notes.statusLine);
  if (doc.summary) heading('Summary').text(doc.summary);
  for (const section of doc.notes.sections) {
    heading(section.title);
    for (const item of section.items) {
      stamp(item.stamp);
      const facts = noteItemFacts(item);
      pdf.font('Helvetica').text(item.text, { continued: facts !== '', paragraphGap: 4 });
      if (facts) pdf.fillColor('#444444').text(facts, { paragraphGap: 4 }).fillColor('black');
    }
  }
  heading('Transcript');
  if (doc.lines.length === 0) pdf.font('Helvetica-Oblique').text('No transcript yet.');
  for (const line of doc.lines) {
    stamp(clockStamp(line.startMs));
    if (line.speaker) pdf.font('Helvetica-Bold').text(`${line.speaker}: `, { continued: true });
    pdf.font('Helvetica').text(line.text, { paragraphGap: 4 });
  }
  pdf.end();
  return done;
}
