import { headingFacts, noteItemLine, transcriptLine, type ExportDocument, type ExportLine } from './export-document.ts';

/** The plain-text formats: a readable TXT transcript and SRT / WebVTT captions. */

export function renderTxt(doc: ExportDocument): string {
  const out = [doc.title, '='.repeat(Math.min(80, Math.max(3, doc.title.length))), ''];
  for (const fact of headingFacts(doc)) out.push(`${fact.label}: ${fact.value}`);
  const heading = (title: string) => out.push('', title, '-'.repeat(title.length));
  if (doc.notes.statusLine) out.push('', doc.notes.statusLine);
  if (doc.summary) {
    heading('Summary');
    out.push(doc.summary);
  }
  for (const section of doc.notes.sections) {
    heading(section.title);
    for (const item of section.items) out.push(`- ${noteItemLine(item)}`);
  }
  heading('Transcript');
  if (doc.lines.length === 0) out.push('(No transcript yet.)');
  for (const line of doc.lines) out.push(transcriptLine(line));
  return `${out.join('\n')}\n`;
}

/** hh:mm:ss plus milliseconds after `separator`: ',' for SRT, '.' for WebVTT. */
export function captionTime(ms: number, separator: ',' | '.'): string {
  const total = Math.max(0, Math.round(ms));
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const seconds = Math.floor((total % 60_000) / 1000);
  const millis = total % 1000;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(hours)}:${two(minutes)}:${two(seconds)}${separator}${String(millis).padStart(3, '0')}`;
}

/** A cue needs a positive length to be shown at all; a zero-length segment gets one second. */
const cueEnd = (line: ExportLine) => (line.endMs > line.startMs ? line.endMs : line.startMs + 1000);

export function renderSrt(doc: ExportDocument): string {
  return doc.lines
    .map(
      (line, i) =>
        `${i + 1}\n${captionTime(line.startMs, ',')} --> ${captionTime(cueEnd(line), ',')}\n${line.speaker ? `${line.speaker}: ` : ''}${line.text}\n`,
    )
    .join('\n');
}

/** WebVTT cue text is markup: &, < and > must be escaped, and "-->" must never appear in it. */
const vttEscape = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

export function renderVtt(doc: ExportDocument): string {
  const cues = doc.lines.map(
    (line, i) =>
      `${i + 1}\n${captionTime(line.startMs, '.')} --> ${captionTime(cueEnd(line), '.')}\n${line.speaker ? `<v ${vttEscape(line.speaker)}>` : ''}${vttEscape(line.text)}\n`,
  );
  return ['WEBVTT\n', ...cues].join('\n');
}
