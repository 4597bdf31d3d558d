import type { TranscriptionStage } from '#shared/contracts/job-progress.ts';
import type { MeetingProcessing } from '#shared/contracts/meetings.ts';
import type { NotesState } from '#shared/contracts/notes.ts';

/**
 * The words for where a meeting's background work is. The server sends stage names and numbers
 * (fraction, part of parts, when a retry is due); the words are made here and only here.
 */

const STAGE_WORDS: Record<TranscriptionStage, string> = {
  queued: 'Waiting for its turn',
  'waiting to retry': 'Waiting to retry',
  decoding: 'Reading the recording',
  transcribing: 'Transcribing',
  'identifying speakers': 'Telling speakers apart',
  saving: 'Saving the transcript',
};

/** A stage this app does not know (a server of another version) or none: true of every stage, never a raw name. */
const UNKNOWN_STAGE = 'Transcribing';

/** "in 30 s", "in 2 min 5 s": the time left until `at`, in whole seconds rounded up; null once it has come. */
function timeUntil(at: string, now: number): string | null {
  const seconds = Math.ceil((Date.parse(at) - now) / 1000);
  if (!(seconds > 0)) return null;
  if (seconds < 60) return `in ${seconds} s`;
  const rest = seconds % 60;
  return `in ${Math.floor(seconds / 60)} min${rest > 0 ? ` ${rest} s` : ''}`;
}

type TranscriptionProgress = Pick<MeetingProcessing, 'stage' | 'progress' | 'part' | 'parts' | 'retryAt'>;

/**
 * "Transcribing… 40%", "Waiting to retry in 30 s…" (counting down from retryAt against `now`),
 * "Transcribing: part 2 of 5…" while a meeting is processed.
 */
export function transcriptionText({ stage, progress, part, parts, retryAt }: TranscriptionProgress, now: number): string {
  let text = stage !== null && Object.hasOwn(STAGE_WORDS, stage) ? STAGE_WORDS[stage] : UNKNOWN_STAGE;
  if (stage === 'waiting to retry' && retryAt) {
    const left = timeUntil(retryAt, now);
    if (left) text = `${text} ${left}`;
  }
  if (part && parts) text = `${text}: part ${part} of ${parts}`;
  return progress !== null && progress > 0 && progress < 1 ? `${text}… ${Math.round(progress * 100)}%` : `${text}…`;
}

/** "Writing notes: part 2 of 5" while an engine works through a meeting. */
export function notesRunningText(progress: NotesState['progress']): string {
  return progress ? `Writing notes: part ${progress.part} of ${progress.parts}` : 'Writing notes…';
}
