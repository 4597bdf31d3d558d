import { MAX_MEETING_HOURS } from '#shared/contracts/meetings.ts';

/** One line of an imported transcript: who said it (as the file names them, or no one), when, and what. */
export type ImportedLine = { speaker: string | null; startMs: number; endMs: number; text: string };

/** Why a file cannot be imported, at the line (1-based) a person should look at; no line for what the whole file does (too many lines). */
export type ImportProblem = { line?: number; message: string };

export type ParseOutcome = { ok: true; lines: ImportedLine[] } | { ok: false; problem: ImportProblem };

/** Line breaks as files from Windows, old Macs and everything else write them. */
export const LINE_BREAK = /\r\n|\r|\n/;

/** Longest speaker name kept (a renamed speaker's limit too). */
export const MAX_SPEAKER_NAME = 100;

/**
 * ~150 words a minute, the usual pace of conversational speech (400 ms a word): how long untimed
 * text takes to say, so a transcript without times still gets a plausible timeline and duration.
 */
export const MS_PER_WORD = 60_000 / 150;

export const wordCount = (text: string): number => text.split(/\s+/).filter(Boolean).length;

/** How long a line takes to say at ~150 words a minute (at least one word's time). */
export const spokenMs = (text: string): number => Math.max(1, wordCount(text)) * MS_PER_WORD;

/** Runs of spaces, tabs and line breaks as one space, ends trimmed. */
export const collapseSpace = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * Untimed lines laid end to end by word count: from `window.startMs`, each as long as its words
 * take at ~150 words a minute; inside a window with an end (several voices in one cue), each gets
 * its share of the window by its words instead.
 */
export function spreadByWords(lines: { speaker: string | null; text: string }[], window: { startMs: number; endMs?: number } = { startMs: 0 }): ImportedLine[] {
  const durations = lines.map((line) => spokenMs(line.text));
  const total = durations.reduce((sum, ms) => sum + ms, 0);
  const scale = window.endMs === undefined || total === 0 ? 1 : (window.endMs - window.startMs) / total;
  let at = window.startMs;
  return lines.map((line, i) => {
    const startMs = Math.round(at);
    at += (durations[i] ?? 0) * scale;
    return { speaker: line.speaker, text: line.text, startMs, endMs: Math.round(at) };
  });
}

/** Where a file stops being text: the first NUL character's line, if any (a PDF or a recording picked by mistake). */
export function binaryLine(content: string): number | undefined {
  const at = content.indexOf('\u0000');
  return at === -1 ? undefined : content.slice(0, at).split(LINE_BREAK).length;
}

/** A line of the file as an error message quotes it: trimmed and cut short. */
export const quoteLine = (line: string | undefined): string => {
  const text = (line ?? '').trim();
  return `"${text.length > 60 ? `${text.slice(0, 57)}...` : text}"`;
};

/** The latest time a transcript may give, in ms (MAX_MEETING_HOURS). */
export const MAX_TIME_MS = MAX_MEETING_HOURS * 3_600_000;

/** A count as a person reads it: 194,000. */
export const countOf = (n: number): string => n.toLocaleString('en-US');
