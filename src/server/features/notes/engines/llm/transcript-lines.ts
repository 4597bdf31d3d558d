import type { NotesSegment, NotesTranscript } from '../../notes-types.ts';
import { estimateTokens } from './token-estimate.ts';

/**
 * The transcript as the model reads it: one line per segment, "[S12] Ana: …". References are
 * short, stable for the whole run (map and reduce cite the same ones) and mean nothing outside
 * it, so ids never reach the prompt and a model cannot cite another meeting's segment.
 */
export type TranscriptLine = { ref: string; segment: NotesSegment; text: string; tokens: number };

export type ReferencedTranscript = {
  lines: TranscriptLine[];
  /** Segment id for a reference as a model may write it ("S12", "[s12]", "12"); undefined if unknown. */
  idOf: (ref: string) => string | undefined;
  refOf: (segmentId: string) => string | undefined;
  speakerName: (speakerId: string | null) => string;
};

export function speakerNamer(transcript: NotesTranscript): (speakerId: string | null) => string {
  const names = new Map(transcript.speakers.map((s) => [s.id, s.name ?? s.label]));
  return (speakerId) => (speakerId ? (names.get(speakerId) ?? 'Unknown speaker') : 'Unknown speaker');
}

export function referenceTranscript(transcript: NotesTranscript): ReferencedTranscript {
  const speakerName = speakerNamer(transcript);
  const byRef = new Map<string, string>();
  const refs = new Map<string, string>();
  const lines = transcript.segments.map((segment, i) => {
    const ref = `S${i + 1}`;
    byRef.set(ref, segment.id);
    refs.set(segment.id, ref);
    const text = `[${ref}] ${speakerName(segment.speakerId)}: ${segment.text.replace(/\s+/g, ' ').trim()}`;
    return { ref, segment, text, tokens: estimateTokens(text) + 1 };
  });
  return {
    lines,
    idOf: (ref) => {
      const bare = ref.replace(/[[\]\s]/g, '').toUpperCase();
      return byRef.get(/^\d+$/.test(bare) ? `S${bare}` : bare);
    },
    refOf: (segmentId) => refs.get(segmentId),
    speakerName,
  };
}
