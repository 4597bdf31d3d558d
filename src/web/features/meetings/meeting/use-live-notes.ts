import type { MeetingDetail } from '#shared/contracts/meetings.ts';
import { useMeetingNotesNews } from '#web/lib/realtime/use-realtime.ts';

/**
 * The meeting with the newest notes state this tab knows: a `meeting.notes` event that arrived after
 * the meeting was fetched (part 3 of 5, say) wins; a fetch after the event wins over it.
 */
export function useLiveNotes(meeting: MeetingDetail | undefined, fetchedAt: number): MeetingDetail | undefined {
  const news = useMeetingNotesNews(meeting?.id ?? '');
  if (!meeting || !news || news.receivedAt <= fetchedAt) return meeting;
  return { ...meeting, notes: news.event.notes };
}
