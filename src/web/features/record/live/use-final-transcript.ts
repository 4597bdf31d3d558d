import { useQuery } from '@tanstack/react-query';
import { formatClock } from '#web/lib/format.ts';
import { useMeetingProgress } from '#web/lib/realtime/use-realtime.ts';
import { savedMeetingOptions } from '../api.ts';
import type { TranscriptLine } from '../demo/demo-transcript.ts';

/**
 * The saved meeting's own transcript once its transcription job is done (announced over
 * /realtime), to replace the live lines in the panel; undefined until then.
 */
export function useFinalTranscript(meetingId: string | null): TranscriptLine[] | undefined {
  const progress = useMeetingProgress(meetingId ?? '');
  const done = meetingId !== null && progress?.status === 'ready';
  const meeting = useQuery({ ...savedMeetingOptions(meetingId ?? ''), enabled: done });
  if (!done || !meeting.data) return undefined;
  const names = new Map(meeting.data.speakers.map((s) => [s.id, s.displayName ?? s.label]));
  return meeting.data.segments.map((segment) => ({
    time: formatClock(segment.startMs / 1000),
    speaker: (segment.speakerId && names.get(segment.speakerId)) || 'Speaker',
    text: segment.text,
  }));
}
