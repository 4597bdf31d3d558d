import { clockStamp, headingFacts, type ExportDocument } from './export-document.ts';

/**
 * DOCX through the `docx` library: a title, the meeting's facts, the summary, then one paragraph
 * per transcript line with the timestamp and speaker in bold. Loaded on first use so a server that
 * never exports does not pay for the library at start-up.
 */
export async function renderDocx(doc: ExportDocument): Promise<Buffer> {
  const { Document, HeadingLevel, Packer, Paragraph, TextRun } = await import('docx');
  const children = [
    new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(doc.title)] }),
    ...headingFacts(doc).map((fact) => new Paragraph({ children: [new TextRun({ text: `${fact.label}: `, bold: true }), new TextRun(fact.value)] })),
  ];
  if (doc.summary) {
    children.push(
      new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun('Summary')] }),
      new Paragraph({ children: [new TextRun(doc.summary)] }),
    );
  }
  children.push(new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun('Transcript')] }));
  if (doc.lines.length === 0) children.push(new Paragraph({ children: [new TextRun({ text: 'No transcript yet.', italics: true })] }));
  for (const line of doc.lines) {
    children.push(
      new Paragraph({
        spacing: { after: 80 },
        children: [
          new TextRun({ text: `[${clockStamp(line.startMs)}] `, color: '666666' }),
          ...(line.speaker ? [new TextRun({ text: `${line.speaker}: `, bold: true })] : []),
          new TextRun(line.text),
        ],
      }),
    );
  }
  const document = new Document({ title: doc.title, creator: 'Parley', sections: [{ children }] });
  return Packer.toBuffer(document);
}
