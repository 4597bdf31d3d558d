import { parseCues } from './parse-cues.ts';
import { LINE_BREAK, type ParseOutcome } from './transcript-lines.ts';

/** What parseCues is given in front of an SRT file, and so how far its line numbers are off. */
const VTT_HEADER = ['WEBVTT', ''];

/**
 * SubRip (.srt), WebVTT's ancestor: the same blocks of a number, a timing line and text, with a
 * comma before the milliseconds. It is read as WebVTT (a header added, the timing lines' commas made
 * dots) so one parser, with its line-by-line checks, serves both; problems are told in SRT's terms
 * at the SRT file's own line numbers.
 */
export function parseSrt(content: string): ParseOutcome {
  const sourceLines = content.replace(/^\uFEFF/, '').split(LINE_BREAK);
  const vtt = [...VTT_HEADER, ...sourceLines.map((line) => (line.includes('-->') ? line.replace(/(\d),(\d)/g, '$1.$2') : line))].join('\n');
  return parseCues(vtt, {
    timestampExample: '00:01:02,000 --> 00:01:05,000',
    sourceLines,
    toSourceLine: (line) => Math.max(1, line - VTT_HEADER.length),
  });
}
