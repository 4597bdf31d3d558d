import { collapseSpace, MAX_SPEAKER_NAME } from './transcript-lines.ts';

/**
 * "Jane Cooper: Okay, let's start." — the speaker convention of Zoom's transcripts and of plain text
 * notes. A name starts with a letter, has at most five words and no colon; "Speaker 2" counts.
 */
const NAME_PREFIX = /^(\p{L}[^:]{0,59}?)\s*:\s+(\S[\s\S]*)$/u;
const MAX_NAME_WORDS = 5;

/** The speaker's name and the words of a "Name: text" line; undefined when the line has no such prefix. */
export function splitNamePrefix(line: string): { name: string; text: string } | undefined {
  const match = NAME_PREFIX.exec(line.trim());
  if (!match?.[1] || !match[2]) return undefined;
  const name = speakerName(match[1]);
  if (!name || name.split(' ').length > MAX_NAME_WORDS) return undefined;
  return { name, text: match[2] };
}

/**
 * Whether a file names its speakers with "Name: " prefixes: at least half of its lines have one.
 * One "Note: …" line in an unnamed transcript is then read as words, not as a speaker called Note.
 */
export function usesNamePrefixes(lines: string[]): boolean {
  if (lines.length === 0) return false;
  const named = lines.filter((line) => splitNamePrefix(line) !== undefined).length;
  return named * 2 >= lines.length;
}

/** A name as the transcript keeps it: one space between words, within the length a rename allows. */
export const speakerName = (name: string): string => collapseSpace(name).slice(0, MAX_SPEAKER_NAME).trim();
