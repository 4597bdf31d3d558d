import type { Db } from '#server/db/create-db.ts';
import { getUserSettings } from './settings.repository.ts';

/** What a person's Recording settings ask of the transcription pipeline. */
export type PipelineSettings = { identifySpeakers: boolean; punctuation: boolean; fillerWordRemoval: boolean };

/**
 * Settings › Recording as the transcription job needs it: Speaker Diarization, Automatic
 * Punctuation and Filler Word Removal (the spec's defaults when the person saved nothing). The job
 * combines identifySpeakers with the meeting's own Speaker Detection option.
 */
export async function getPipelineSettings(db: Db, userId: string): Promise<PipelineSettings> {
  const { recording } = await getUserSettings(db, { id: userId });
  return {
    identifySpeakers: recording.speakerDiarization,
    punctuation: recording.automaticPunctuation,
    fillerWordRemoval: recording.fillerWordRemoval,
  };
}
