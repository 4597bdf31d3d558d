import { clockStamp, headingFacts, noteItemFacts, type ExportDocument } from './export-document.ts';

/**
 * DOCX through the `docx` library: a title, the meeting's facts, the notes (summary, key points,
 * action items, decisions, topics), then one paragraph per transcript line with the timestamp and
 * speaker in bold. Loaded on first use so a server that never exports does not pay for the library
 * at start-up.
 */
export async function renderDocx(doc: ExportDocument): Promise<Buffer> {
  const { Document, HeadingLevel, Packer, Paragraph, TextRun } = await import('docx');
  const heading = (title: string) => new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun(title)] });
  const stamp = (text: string) => new TextRun({ text: `[${text}] `, color: '666666' });
  const children = [
    new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(doc.title)] }),
    ...headingFacts(doc).map((fact) => new Paragraph({ children: [new TextRun({ text: `${fact.label}: `, bold: true }), new TextRun(fact.value)] })),
  ];
  if (doc.notes.statusLine) children.push(new Paragraph({ spacing: { before: 200 }, children: [new TextRun({ text: doc.notes.statusLine, italics: true })] }));
  if (doc.summary) children.push(heading('Summary'), new Paragraph({ children: [new TextRun(doc.summary)] }));
  for (const section of doc.notes.sections) {
    children.push(heading(section.title));
    for (const item of section.items) {
      children.push(
        new Paragraph({
          bullet: { level: 0 },
          children: [
            stamp(item.stamp),
            new TextRun(item.text),
            ...(item.facts.length > 0 ? [new TextRun({ text: noteItemFacts(item), color: '444444' })] : []),
          ],
        }),
      );
    }
  }
  children.push(heading('Transcript'));
  if (doc.lines.length === 0) children.push(new Paragraph({ children: [new TextRun({ text: 'No transcript yet.', italics: true })] }));
  for (const line of doc.lines) {
    children.push(
      new Paragraph({
        spacing: { after: 80 },
        children: [stamp(clockStamp(line.startMs)), ...(line.speaker ? [new TextRun({ text: `${line.speaker}: `, bold: true })] : []), new TextRun(line.text)],
      }),
    );
  }
  const document = new Document({ title: doc.title, creator: 'Parley', sections: [{ children }] });
  return Packer.toBuffer(document);
}
