import { clockStamp, headingFacts, type ExportDocument } from './export-document.ts';

/**
 * PDF through pdfkit with its built-in Helvetica, so no font files have to ship with Parley.
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
  if (doc.summary) {
    pdf.moveDown().font('Helvetica-Bold').fontSize(14).text('Summary');
    pdf.moveDown(0.3).font('Helvetica').fontSize(10).text(doc.summary);
  }
  pdf.moveDown().font('Helvetica-Bold').fontSize(14).text('Transcript');
  pdf.moveDown(0.3).fontSize(10);
  if (doc.lines.length === 0) pdf.font('Helvetica-Oblique').text('No transcript yet.');
  for (const line of doc.lines) {
    pdf
      .font('Helvetica')
      .fillColor('#666666')
      .text(`[${clockStamp(line.startMs)}] `, { continued: true })
      .fillColor('black');
    if (line.speaker) pdf.font('Helvetica-Bold').text(`${line.speaker}: `, { continued: true });
    pdf.font('Helvetica').text(line.text, { paragraphGap: 4 });
  }
  pdf.end();
  return done;
}
