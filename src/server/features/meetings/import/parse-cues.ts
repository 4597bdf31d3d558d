import { createRequire } from 'node:module';
import webvtt, { type WebVTTCue, type WebVTTError, type WebVTTNode } from 'webvtt-parser';
import { z } from 'zod';
import { splitNamePrefix, speakerName, usesNamePrefixes } from './speaker-names.ts';
import { collapseSpace, LINE_BREAK, quoteLine, spreadByWords, type ImportedLine, type ParseOutcome } from './transcript-lines.ts';

/**
 * WebVTT (and SRT, read as WebVTT by parse-srt.ts) through the W3C validator's parser, webvtt-parser:
 * it reports each problem with its line and parses cue text into a tree with the voice tags
 * (`<v Jane Cooper>`) that Teams writes. Its full entity table decodes `&amp;` and the rest.
 */
const parser = new webvtt.WebVTTParser(htmlEntities());

/** The package's entity table; required, not imported, since the server's bundle drops JSON import attributes that Node insists on. */
function htmlEntities(): Record<string, string> {
  const require = createRequire(import.meta.url);
  return z.record(z.string(), z.string()).parse(require('webvtt-parser/html-entities.json'));
}

/**
 * The parser's problems that lose words (a cue it skips), so the import stops at them. The rest,
 * such as cues out of order, an end before its start or an unknown cue setting, leave every cue's
 * text and times readable and are let through.
 */
const SIGNATURE = 'No valid signature. (File needs to start with "WEBVTT".)';
const STANDALONE_TEXT = 'Cue identifier cannot be standalone.';
const TEXT_WITHOUT_TIMING = 'Cue identifier needs to be followed by timestamp.';
const BAD_TIMING = new Set([
  'No timestamp found.',
  'Timestamp must start with a character in the range 0-9.',
  'No time unit separator found.',
  'Must be exactly two digits.',
  'No seconds found or minutes is greater than 59.',
  'No decimal separator (".") found.',
  'Milliseconds must be given in three digits.',
  'You cannot have more than 59 minutes.',
  'You cannot have more than 59 seconds.',
  'No valid timestamp separator found.',
]);

/** How a cue file's problems are told: its own timestamp example, and its lines as the person's file numbers them. */
export type CueFileView = { timestampExample: string; sourceLines: string[]; toSourceLine: (line: number) => number };

export function parseVtt(content: string): ParseOutcome {
  return parseCues(content, { timestampExample: '00:01:02.000 --> 00:01:05.000', sourceLines: content.split(LINE_BREAK), toSourceLine: (line) => line });
}

/** Cues of a WebVTT text as transcript lines, each voice its speaker; or the first line that loses words. */
export function parseCues(vtt: string, view: CueFileView): ParseOutcome {
  const { cues, errors } = parser.parse(vtt);
  const fatal = errors.filter(isFatal).sort((a, b) => a.line - b.line)[0];
  if (fatal) return { ok: false, problem: describe(fatal, view) };
  if (cues.length === 0) {
    const last = view.sourceLines.findLastIndex((line) => line.trim() !== '') + 1;
    return {
      ok: false,
      problem: { line: Math.max(1, last), message: `expected a cue (a timestamp like ${view.timestampExample}, then the words spoken), but the file has none` },
    };
  }
  return { ok: true, lines: attributeSpeakers(cues.flatMap(linesOfCue)) };
}

const isFatal = (error: WebVTTError): boolean =>
  error.message === SIGNATURE || error.message === STANDALONE_TEXT || error.message === TEXT_WITHOUT_TIMING || BAD_TIMING.has(error.message);

function describe(error: WebVTTError, view: CueFileView): { line: number; message: string } {
  if (error.message === SIGNATURE) return { line: 1, message: 'expected the file to start with WEBVTT' };
  // A standalone text line is reported at the blank line after it; the person wants the text's own line.
  const line = error.message === STANDALONE_TEXT ? error.line - 1 : error.line;
  const sourceLine = view.toSourceLine(line);
  return { line: sourceLine, message: `expected a timestamp like ${view.timestampExample}, found ${quoteLine(view.sourceLines[sourceLine - 1])}` };
}

/** A cue's voices as lines: one voice is the cue; several share the cue's time by their words. */
function linesOfCue(cue: WebVTTCue): ImportedLine[] {
  const startMs = Math.round(cue.startTime * 1000);
  const endMs = Math.max(startMs, Math.round(cue.endTime * 1000));
  const spans = voiceSpans(cue.tree.children);
  if (spans.length === 1 && spans[0]) return [{ ...spans[0], startMs, endMs }];
  return spreadByWords(spans, { startMs, endMs });
}

/** The cue's text by voice: text after a voice's end tag still belongs to that voice (tags are often left open). */
function voiceSpans(nodes: WebVTTNode[]): { speaker: string | null; text: string }[] {
  const spans: { speaker: string | null; text: string }[] = [];
  for (const node of nodes) {
    const last = spans.at(-1);
    if (node.type === 'object' && node.name === 'v') spans.push({ speaker: speakerName(node.value ?? '') || null, text: textOf(node.children) });
    else if (last) last.text += textOf([node]);
    else spans.push({ speaker: null, text: textOf([node]) });
  }
  return spans.map((span) => ({ ...span, text: collapseSpace(span.text) })).filter((span) => span.text !== '');
}

function textOf(nodes: WebVTTNode[]): string {
  return nodes.map((node) => (node.type === 'text' ? node.value : node.type === 'object' ? textOf(node.children) : '')).join('');
}

/**
 * Speakers as the file names them: voice tags (Teams); else "Name: text" in the cue text when most
 * cues have it (Zoom). A cue without a name, in a file that names its speakers, continues the one
 * before: captioning writes the voice only when it changes.
 */
function attributeSpeakers(lines: ImportedLine[]): ImportedLine[] {
  const hasVoices = lines.some((line) => line.speaker !== null);
  const named = hasVoices
    ? lines
    : usesNamePrefixes(lines.map((line) => line.text))
      ? lines.map((line) => {
          const prefix = splitNamePrefix(line.text);
          return prefix ? { ...line, speaker: prefix.name, text: prefix.text } : line;
        })
      : lines;
  let current: string | null = null;
  return named.map((line) => {
    current = line.speaker ?? current;
    return { ...line, speaker: current };
  });
}
