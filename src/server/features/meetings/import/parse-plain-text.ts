import { splitNamePrefix, speakerName, usesNamePrefixes } from './speaker-names.ts';
import { collapseSpace, LINE_BREAK, quoteLine, spokenMs, spreadByWords, type ImportedLine, type ParseOutcome } from './transcript-lines.ts';

/**
 * "Jane Cooper  00:01:02" (Otter, Teams and Zoom transcript downloads): a speaker's name, two or more
 * spaces or a tab (or one space before a full h:mm:ss time), then when they began; their words
 * follow on the next lines. `[Jane Cooper] 00:01:02` and `Jane Cooper (1:02)` are read the same way.
 */
const BLOCK_HEADER =
  /^\[?(?<name>\p{L}[^:\t[\]()]{0,59}?)\]?(?:[ \t]{2,}|\t| (?=\(?\d{1,2}:\d{2}:\d{2}))\(?(?<time>\d{1,2}(?::\d{2}){1,2}(?:[.,]\d{1,3})?)\)?$/u;

type Header = { name: string; time: string };

const headerOf = (line: string): Header | undefined => {
  const groups = BLOCK_HEADER.exec(line.trim())?.groups;
  return groups?.name && groups.time ? { name: groups.name, time: groups.time } : undefined;
};

/** Plain text: blocks under "Name  00:01:02" headers, or "Name: text" lines, or paragraphs nobody is named in. */
export function parsePlainText(content: string): ParseOutcome {
  const lines = content.replace(/^\uFEFF/, '').split(LINE_BREAK);
  const first = lines.find((line) => line.trim() !== '');
  if (first !== undefined && headerOf(first)) return parseBlocks(lines);
  const spoken = parseNamedLines(lines);
  return { ok: true, lines: spreadByWords(spoken) };
}

/** Blocks under timed headers; each lasts until the next begins (the last, as long as its words take to say). */
function parseBlocks(lines: string[]): ParseOutcome {
  const blocks: { speaker: string; time: string; startMs: number; words: string[] }[] = [];
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const header = headerOf(line);
    const current = blocks.at(-1);
    if (!header) {
      current?.words.push(line);
      continue;
    }
    const startMs = timeMs(header.time);
    if (startMs === undefined) return problem(index + 1, `expected a time like 00:01:02 after the speaker's name, found ${quoteLine(raw)}`);
    if (current && startMs < current.startMs) {
      return problem(index + 1, `expected a time no earlier than the block before it (${header.time} comes before ${current.time})`);
    }
    blocks.push({ speaker: speakerName(header.name), time: header.time, startMs, words: [] });
  }
  // A name and a time with nothing said under them (a cut-off export) is left out, not an error.
  const said = blocks.filter((block) => block.words.length > 0);
  const imported: ImportedLine[] = said.map((block, i) => {
    const text = collapseSpace(block.words.join(' '));
    const next = said[i + 1];
    return { speaker: block.speaker, startMs: block.startMs, endMs: next ? next.startMs : block.startMs + spokenMs(text), text };
  });
  if (imported.length === 0) return problem(lines.length, 'expected the words spoken under a speaker and time, but there are none');
  return { ok: true, lines: imported };
}

/**
 * "Name: text" lines when at least half the lines have a name (a line without one is the previous
 * speaker's text wrapped onto the next line); otherwise paragraphs, with no speaker named.
 */
function parseNamedLines(lines: string[]): { speaker: string | null; text: string }[] {
  const filled = lines.map((line) => line.trim()).filter((line) => line !== '');
  if (!usesNamePrefixes(filled)) {
    return lines
      .join('\n')
      .split(/\n\s*\n/)
      .map((paragraph) => ({ speaker: null, text: collapseSpace(paragraph) }))
      .filter((paragraph) => paragraph.text !== '');
  }
  const spoken: { speaker: string | null; text: string }[] = [];
  for (const line of filled) {
    const prefix = splitNamePrefix(line);
    const last = spoken.at(-1);
    if (prefix) spoken.push({ speaker: prefix.name, text: collapseSpace(prefix.text) });
    else if (last) last.text = `${last.text} ${collapseSpace(line)}`;
    else spoken.push({ speaker: null, text: collapseSpace(line) });
  }
  return spoken;
}

/** "1:02", "01:02", "75:10" (minutes past the hour mark), "1:02:03" or "00:01:02.500" in ms; undefined when a unit overflows. */
function timeMs(time: string): number | undefined {
  const [clock = '', fraction = ''] = time.split(/[.,]/);
  const parts = clock.split(':').map(Number);
  const [hours = 0, minutes = 0, seconds = 0] = parts.length === 3 ? parts : [0, ...parts];
  if (seconds > 59 || (parts.length === 3 && minutes > 59)) return undefined;
  return ((hours * 60 + minutes) * 60 + seconds) * 1000 + Math.round(Number(`0.${fraction || '0'}`) * 1000);
}

const problem = (line: number, message: string): ParseOutcome => ({ ok: false, problem: { line, message } });
