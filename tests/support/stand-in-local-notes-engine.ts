import type { NotesEngine, NotesTranscript } from '#server/features/notes/notes-types.ts';

/**
 * A stand-in for the local notes engine (being written elsewhere) in the LLM engine's tests: it
 * quotes the first segment of whatever part it is given as a key point and as its summary (citing
 * it), and records each part, so a test can see which parts fell back to it and that together they
 * cover what the LLM did not.
 */
export function createStandInLocalEngine() {
  const parts: NotesTranscript[] = [];
  const engine: NotesEngine = {
    name: 'local',
    async generate(transcript, { signal }) {
      signal.throwIfAborted();
      parts.push(transcript);
      const first = transcript.segments[0];
      return {
        summary: first ? first.text : '',
        summarySentences: first ? [{ text: first.text, segmentIds: [first.id] }] : [],
        keyPoints: first ? [{ text: first.text, segmentIds: [first.id] }] : [],
        topics: [],
        actionItems: [],
        decisions: [],
        engine: 'local',
        droppedUncited: 0,
        localFallbackParts: 0,
      };
    },
  };
  return { engine, parts, reset: () => (parts.length = 0) };
}
