import type { NotesSpeaker, NotesTranscript } from '#server/features/notes/notes-types.ts';

/** Speakers for hand-written transcripts: two named, one not. */
export const SPEAKERS: NotesSpeaker[] = [
  { id: 'spk-ana', label: 'Speaker 1', name: 'Ana' },
  { id: 'spk-sam', label: 'Speaker 2', name: 'Sam Okafor' },
  { id: 'spk-3', label: 'Speaker 3', name: null },
];

/**
 * A transcript from lines of [speaker id, text], each line a segment of five seconds, ids `s1`,
 * `s2`…; a Tuesday morning in Amsterdam unless told otherwise.
 */
export function makeTranscript(
  lines: ReadonlyArray<readonly [speakerId: string | null, text: string]>,
  options: Partial<Pick<NotesTranscript, 'startedAt' | 'timeZone' | 'speakers'>> = {},
): NotesTranscript {
  return {
    title: 'Test meeting',
    startedAt: options.startedAt ?? '2025-03-04T09:00:00.000Z',
    timeZone: options.timeZone ?? 'Europe/Amsterdam',
    speakers: options.speakers ?? SPEAKERS,
    segments: lines.map(([speakerId, text], i) => ({ id: `s${i + 1}`, speakerId, startMs: i * 5000, endMs: (i + 1) * 5000, text })),
  };
}
