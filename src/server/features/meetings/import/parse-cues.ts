import { createRequire } from 'node:module';
import webvtt, { type WebVTTCue, type WebVTTError, type WebVTTNode } from 'webvtt-parser';
import { z } from 'zod';
import { splitNamePrefix, speakerName, usesNamePrefixes } from './speaker-names.ts';
import { MAX_MEETING_HOURS } from '#shared/contracts/meetings.ts';
import { collapseSpace, countOf, LINE_BREAK, MAX_TIME_MS, quoteLine, spreadByWords, type ImportedLine, type ParseOutcome } from './transcript-lines.ts';

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
  // Before the parser, which walks a cue's tags recursively: a million nested tags overflow its stack.
  const deep = deepTags(view.sourceLines);
  if (deep)
    return {
      ok: false,
      problem: { line: deep.line, message: `expected tags nested at most ${MAX_TAG_DEPTH} deep in a cue's text, found ${countOf(deep.depth)}` },
    };
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
  const timings = timingLines(view.sourceLines);
  const late = timings.find((index) => latestTimeMs(view.sourceLines[index] ?? '') > MAX_TIME_MS);
  if (late !== undefined) {
    return {
      ok: false,
      problem: {
        line: late + 1,
        message: `expected times within ${MAX_MEETING_HOURS} hours (the longest meeting), found ${quoteLine(view.sourceLines[late])}`,
      },
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

/** Indexes of the lines that time a cue ("00:01:02.000 --> 00:01:05.000"). */
const timingLines = (lines: string[]): number[] => lines.flatMap((line, index) => (line.includes('-->') ? [index] : []));

/** The latest of a timing line's times in ms (hours may have any number of digits in WebVTT). */
function latestTimeMs(line: string): number {
  let latest = 0;
  for (const [, hours = '0', minutes = '0', seconds = '0', fraction = '0'] of line.matchAll(/(?:(\d+):)?(\d+):(\d+)[.,](\d+)/g)) {
    latest = Math.max(latest, ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000 + Number(`0.${fraction}`) * 1000);
  }
  return latest;
}

/**
 * Tags nested deeper than this are no caption's styling (a voice holding italics holding bold is
 * three deep).
 */
const MAX_TAG_DEPTH = 32;

/** The tags webvtt-parser nests (any other start tag is left out of its tree). */
const NESTING_TAGS: ReadonlySet<string> = new Set(['c', 'i', 'b', 'u', 'ruby', 'v', 'lang']);

/**
 * The first cue whose tags nest deeper than MAX_TAG_DEPTH: its line and how deep it goes. Counted
 * as webvtt-parser nests them: the tags it keeps open a level (<rt> only inside <ruby>), an end tag
 * closes one only when it names the innermost open tag (</ruby> closes an <rt> within it too), and
 * a cue ends at a blank line.
 */
function deepTags(lines: string[]): { line: number; depth: number } | undefined {
  let open: string[] = [];
  let found: { line: number; depth: number } | undefined;
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') {
      if (found) return found;
      open = [];
      continue;
    }
    for (const [, end, name = ''] of line.matchAll(/<(\/?)([^\s.>]*)/g)) {
      const innermost = open.at(-1);
      if (end) {
        if (name === innermost) open.pop();
        else if (name === 'ruby' && innermost === 'rt') open.splice(-2, 2);
      } else if (NESTING_TAGS.has(name) || (name === 'rt' && innermost === 'ruby')) {
        open.push(name);
        if (open.length > MAX_TAG_DEPTH) found = { line: found?.line ?? index + 1, depth: Math.max(found?.depth ?? 0, open.length) };
      }
    }
  }
  return found;
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
