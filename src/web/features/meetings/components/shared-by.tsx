import { UsersIcon } from 'lucide-react';
import type { MeetingSummary } from '#shared/contracts/meetings.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { cn } from '#web/lib/utils.ts';

/** Whose meeting a teammate's is: "Shared by <owner>"; nothing for the reader's own meetings. */
export function sharedByText(meeting: Pick<MeetingSummary, 'access' | 'owner'>): string | undefined {
  if (meeting.access !== 'team') return undefined;
  return `Shared by ${meeting.owner?.name.trim() || 'a teammate'}`;
}

/** The "Shared by <owner>" mark on a teammate's meeting wherever meetings are listed. */
export function SharedByBadge({ meeting, className }: { meeting: Pick<MeetingSummary, 'access' | 'owner'>; className?: string }) {
  const text = sharedByText(meeting);
  if (!text) return null;
  return (
    <Badge variant="secondary" className={cn('gap-1', className)}>
      <UsersIcon aria-hidden="true" />
      {text}
    </Badge>
  );
}
