import type { MeetingProgressEvent } from '#shared/contracts/realtime.ts';

/** The newest progress event per meeting, as the /realtime socket delivers them. */
type Listener = () => void;
const latest = new Map<string, MeetingProgressEvent>();
const listeners = new Set<Listener>();

export const progressStore = {
  set(event: MeetingProgressEvent) {
    latest.set(event.meetingId, event);
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
