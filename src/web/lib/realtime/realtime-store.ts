import type { MeetingNotesEvent, MeetingProgressEvent } from '#shared/contracts/realtime.ts';

type Listener = () => void;

/** The newest event per meeting of one kind, as the /realtime socket delivers them. */
function createLatestStore<Entry extends { meetingId: string }>() {
  const latest = new Map<string, Entry>();
  const listeners = new Set<Listener>();
  return {
    set(entry: Entry) {
      latest.set(entry.meetingId, entry);
      for (const listener of listeners) listener();
    },
    get: (meetingId: string) => latest.get(meetingId),
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clear() {
      latest.clear();
      for (const listener of listeners) listener();
    },
  };
}

/** The newest transcription progress per meeting. */
export const progressStore = createLatestStore<MeetingProgressEvent>();

/**
 * The newest notes state per meeting, with when it arrived: a reader compares that with when its
 * copy of the meeting was fetched, so whichever is newer is shown.
 */
export type NotesNews = { meetingId: string; event: MeetingNotesEvent; receivedAt: number };
export const notesStore = createLatestStore<NotesNews>();
