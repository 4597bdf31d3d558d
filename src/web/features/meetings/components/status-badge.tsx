import type { MeetingStatus } from '#shared/contracts/meetings.ts';
import { Badge } from '#web/components/ui/badge.tsx';

/** The card's status badge: the spec's 'Transcribed' for a ready meeting, its stage otherwise. */
export const STATUS_LABELS: Record<MeetingStatus, string> = {
  ready: 'Transcribed',
  processing: 'Processing',
  recording: 'Recording',
  failed: 'Failed',
};

const VARIANTS = { ready: 'default', processing: 'secondary', recording: 'secondary', failed: 'destructive' } as const;

export function StatusBadge({ status }: { status: MeetingStatus }) {
  return <Badge variant={VARIANTS[status]}>{STATUS_LABELS[status]}</Badge>;
}
