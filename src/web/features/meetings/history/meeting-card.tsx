import { CalendarIcon, ClockIcon, UsersIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { MeetingListItem } from '#shared/contracts/meetings.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardAction, CardContent, CardFooter, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { paths } from '#web/app/paths.ts';
import { firstSentence, formatDate, formatDuration } from '#web/lib/format.ts';
import { ProcessingStatus } from '../components/processing-status.tsx';
import { DeleteMeetingDialog } from '../components/delete-meeting-dialog.tsx';
import { MeetingActionsMenu } from '../components/meeting-actions-menu.tsx';
import type { ShareDialogComponent } from '../components/share-dialog-slot.ts';
import { ShareWithTeamDialog } from '../components/share-with-team-dialog.tsx';
import { SharedByBadge } from '../components/shared-by.tsx';
import { StatusBadge } from '../components/status-badge.tsx';
import { SearchMatches } from './search-matches.tsx';

/** One meeting in the /history grid (spec §2): title, date, duration, participants, summary, badge, actions. */
export function MeetingCard({ meeting, ShareDialog }: { meeting: MeetingListItem; ShareDialog: ShareDialogComponent }) {
  const [dialog, setDialog] = useState<'share' | 'team' | 'delete' | undefined>();
  const owned = meeting.access !== 'team';
  const titleId = `meeting-${meeting.id}-title`;
  return (
    <Card aria-labelledby={titleId} role="article" className="gap-4">
      <CardHeader>
        <CardTitle className="text-lg leading-snug">
          <h2 id={titleId} className="line-clamp-2">
            {meeting.title}
          </h2>
        </CardTitle>
        <div className="flex flex-wrap gap-1.5">
          <StatusBadge status={meeting.status} />
          <SharedByBadge meeting={meeting} />
          {meeting.isSample && <Badge variant="outline">Sample</Badge>}
        </div>
        <CardAction>
          <MeetingActionsMenu
            meeting={meeting}
            onShare={() => setDialog('share')}
            onShareWithTeam={() => setDialog('team')}
            onDelete={() => setDialog('delete')}
          />
        </CardAction>
      </CardHeader>
      <CardContent className="grid flex-1 content-start gap-3 text-sm">
        {(meeting.status === 'processing' || meeting.status === 'failed') && <ProcessingStatus meeting={meeting} compact canRetry={owned} />}
        <div className="flex flex-wrap gap-x-4 gap-y-1 text-muted-foreground">
          <span className="flex items-center gap-1.5">
            <CalendarIcon className="size-4" aria-hidden="true" />
            <time dateTime={meeting.startedAt}>{formatDate(meeting.startedAt)}</time>
          </span>
          <span className="flex items-center gap-1.5">
            <ClockIcon className="size-4" aria-hidden="true" />
            {formatDuration(meeting.durationSeconds)}
          </span>
        </div>
        {meeting.participants.length > 0 && (
          <p className="flex items-start gap-1.5 text-muted-foreground">
            <UsersIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span>
              <span className="sr-only">Participants: </span>
              {meeting.participants.join(', ')}
            </span>
          </p>
        )}
        {/* A search shows why the meeting matched; otherwise the summary's first sentence says what it was about. */}
        {meeting.matches && meeting.matches.length > 0 ? (
          <SearchMatches meetingId={meeting.id} title={meeting.title} matches={meeting.matches} />
        ) : (
          <p className="line-clamp-3">
            {meeting.summary?.trim() ? firstSentence(meeting.summary) : <span className="text-muted-foreground italic">No summary yet.</span>}
          </p>
        )}
      </CardContent>
      <CardFooter>
        <Button variant="outline" className="w-full" asChild>
          <Link to={paths.meeting.href(meeting.id)} aria-label={`View Details of ${meeting.title}`}>
            View Details
          </Link>
        </Button>
      </CardFooter>
      {owned && (
        <>
          <ShareDialog meetingId={meeting.id} title={meeting.title} open={dialog === 'share'} onOpenChange={(open) => setDialog(open ? 'share' : undefined)} />
          <ShareWithTeamDialog meeting={meeting} open={dialog === 'team'} onOpenChange={(open) => setDialog(open ? 'team' : undefined)} />
          <DeleteMeetingDialog
            meetingId={meeting.id}
            title={meeting.title}
            open={dialog === 'delete'}
            onOpenChange={(open) => setDialog(open ? 'delete' : undefined)}
          />
        </>
      )}
    </Card>
  );
}
