import { MAX_IMPORT_SEGMENTS, MAX_IMPORT_SPEAKERS, MAX_MEETING_HOURS } from '#shared/contracts/meetings.ts';
import type { TranscriptInput } from '../meetings.repository.ts';
import { detectFormat, type TranscriptFormat } from './detect-format.ts';
import { parseVtt } from './parse-cues.ts';
import { parsePlainText } from './parse-plain-text.ts';
import { parseSrt } from './parse-srt.ts';
import { binaryLine, countOf, MAX_TIME_MS, type ImportedLine, type ImportProblem, type ParseOutcome } from './transcript-lines.ts';

export type { ImportProblem } from './transcript-lines.ts';

/** A transcript file as a meeting takes it: its speakers, timed segments and length. */
export type ParsedTranscript = { format: TranscriptFormat; transcript: TranscriptInput; durationSeconds: number };

const READERS: Record<TranscriptFormat, (content: string) => ParseOutcome> = { vtt: parseVtt, srt: parseSrt, text: parsePlainText };

/**
 * Reads a WebVTT, SRT or plain-text transcript into speakers (named from the file; the same name,
 * in any letter case, is the same speaker) and segments; or says at which line the file cannot be read.
 */
export function parseTranscriptFile(fileName: string, content: string): { ok: true; value: ParsedTranscript } | { ok: false; problem: ImportProblem } {
  if (content.trim() === '')
    return { ok: false, problem: { line: 1, message: 'the file is empty; expected a WebVTT or SRT transcript, or lines like "Name: text"' } };
  const binary = binaryLine(content);
  if (binary !== undefined)
    return { ok: false, problem: { line: binary, message: 'this is not a text file; expected a WebVTT, SRT or plain-text transcript' } };
  const format = detectFormat(fileName, content);
  const outcome = READERS[format](content);
  if (!outcome.ok) return outcome;
  if (outcome.lines.length === 0) return { ok: false, problem: { line: 1, message: 'expected the words spoken, but the file has none' } };
  // Checked here, in the document process, so a file of a million lines never reaches the server's thread.
  if (outcome.lines.length > MAX_IMPORT_SEGMENTS) {
    return tooMuch(`The transcript has ${countOf(outcome.lines.length)} lines; an import takes at most ${countOf(MAX_IMPORT_SEGMENTS)}. Split it into parts.`);
  }
  const transcript = toTranscript(outcome.lines);
  if (transcript.speakers.length > MAX_IMPORT_SPEAKERS) {
    return tooMuch(`The transcript names ${countOf(transcript.speakers.length)} speakers; an import takes at most ${countOf(MAX_IMPORT_SPEAKERS)}.`);
  }
  const lastEnd = transcript.segments.reduce((end, s) => Math.max(end, s.endMs), 0);
  // Timed files are checked line by line by their readers; untimed text is timed by its words, and a
  // few megabytes of one-letter words would last for weeks.
  if (lastEnd > MAX_TIME_MS) {
    return tooMuch(`The transcript runs for ${countOf(Math.ceil(lastEnd / 3_600_000))} hours; an import takes at most ${MAX_MEETING_HOURS} hours.`);
  }
  return { ok: true, value: { format, transcript, durationSeconds: Math.ceil(lastEnd / 1000) } };
}

const tooMuch = (message: string) => ({ ok: false as const, problem: { message } });

function toTranscript(lines: ImportedLine[]): TranscriptInput {
  const speakers: TranscriptInput['speakers'] = [];
  const indexByName = new Map<string, number>();
  const speakerOf = (name: string | null): number | null => {
    if (name === null) return null;
    const key = name.toLowerCase();
    const known = indexByName.get(key);
    if (known !== undefined) return known;
    speakers.push({ label: `Speaker ${speakers.length + 1}`, displayName: name });
    indexByName.set(key, speakers.length - 1);
    return speakers.length - 1;
  };
  const segments = lines.map((line) => ({
    speaker: speakerOf(line.speaker),
    startMs: line.startMs,
    endMs: Math.max(line.startMs, line.endMs),
    text: line.text,
  }));
  return { speakers, segments };
}
