import { AlertTriangleIcon, CalendarClockIcon, MessageSquareQuoteIcon, UserIcon } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import type { ActionItemMention, TrackedActionItem } from '#shared/contracts/tracker.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { formatClock, formatDay } from '#web/lib/format.ts';
import { cn } from '#web/lib/utils.ts';
import { paths } from '#web/app/paths.ts';
import { useAnswerMention, useSetItemStatus } from '../api.ts';
import { MeetingLink } from '../components/meeting-link.tsx';

/** The due label: the resolved date when there is one, else the words it was said in ("Next review"). */
const dueLabel = (item: TrackedActionItem) => (item.due ? formatDay(item.due) : item.dueText);

/**
 * One tracked action item: tick it done (or open again), who owns it, when it is due, where it was
 * said, and the later moments that talked about it again.
 */
export function ActionItemRow({ item }: { item: TrackedActionItem }) {
  const textId = useId();
  const setStatus = useSetItemStatus();
  const done = item.status === 'done';
  // While the tick is on its way the box shows where it is going; the refetched list settles it.
  const checked = setStatus.isPending ? setStatus.variables.status === 'done' : done;

  const tick = (nowDone: boolean) => setStatus.mutate({ itemId: item.id, meetingId: item.meeting.id, status: nowDone ? 'done' : 'open' });

  const due = dueLabel(item);
  // A teammate's meeting (shared with the person's team): its owner alone ticks its items and answers their mentions.
  const readOnly = item.meeting.sharedBy !== undefined;
  return (
    <li className="flex gap-3 py-4 first:pt-0 last:pb-0" aria-labelledby={textId}>
      <Checkbox
        className="mt-0.5"
        checked={checked}
        // A dismissed item was rejected on its meeting's page; it is not a task to tick off.
        disabled={item.status === 'dismissed' || readOnly}
        // Busy rather than disabled while a tick is on its way, so the keyboard focus stays on the box.
        aria-busy={setStatus.isPending}
        aria-labelledby={textId}
        aria-describedby={`${textId}-status`}
        onCheckedChange={(value) => {
          if (!setStatus.isPending) tick(value === true);
        }}
      />
      <div className="grid min-w-0 flex-1 gap-2">
        <span id={textId} className={cn('font-medium', (checked || item.status === 'dismissed') && 'text-muted-foreground line-through')}>
          {item.text}
        </span>
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant="secondary">
            <UserIcon aria-hidden="true" />
            {item.assignee ?? 'Unassigned'}
          </Badge>
          {due && (
            <Badge variant="outline" title={item.due && item.dueText ? `Said as “${item.dueText}”` : undefined}>
              <CalendarClockIcon aria-hidden="true" />
              Due: {due}
            </Badge>
          )}
          {item.overdue && (
            <Badge variant="destructive">
              <AlertTriangleIcon aria-hidden="true" />
              Overdue
            </Badge>
          )}
          <Badge variant={item.status === 'open' ? 'outline' : 'secondary'} id={`${textId}-status`}>
            {STATUS_LABELS[item.status]}
          </Badge>
          <span className="text-sm text-muted-foreground">
            From <MeetingLink meeting={item.meeting} atMs={item.startMs} />
          </span>
        </div>
        {item.mentions.length > 0 && (
          <ul className="grid gap-2" aria-label="Mentioned again">
            {item.mentions.map((mention) => (
              <MentionNote key={mention.id} item={item} mention={mention} />
            ))}
          </ul>
        )}
      </div>
    </li>
  );
}

const STATUS_LABELS = { open: 'Open', done: 'Done', dismissed: 'Dismissed' } as const;
const ANSWERS = { done: 'You answered: done', slipped: 'You answered: slipped' } as const;

/** "Mentioned again in <meeting> at 12:34": a later meeting talked about the item; while it is open, done or slipped? */
function MentionNote({ item, mention }: { item: TrackedActionItem; mention: ActionItemMention }) {
  const answer = useAnswerMention();
  const asking = mention.resolution === null && item.status === 'open' && item.meeting.sharedBy === undefined;
  const respond = (resolution: 'done' | 'slipped') => answer.mutate({ itemId: item.id, mentionId: mention.id, resolution });
  return (
    <li className="grid gap-2 rounded-md border bg-muted/40 p-3 text-sm">
      <p className="flex items-start gap-2">
        <MessageSquareQuoteIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        <span>
          Mentioned again in{' '}
          <Link to={paths.meeting.href(mention.meeting.id, { t: mention.startMs })} className="font-medium underline-offset-4 hover:underline">
            {mention.meeting.title}
          </Link>{' '}
          at {formatClock(mention.startMs / 1000)}
        </span>
      </p>
      <blockquote className="border-l-2 pl-3 text-muted-foreground italic">“{mention.text}”</blockquote>
      {asking ? (
        <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Done or slipped?">
          <span className="text-muted-foreground">Done or slipped?</span>
          <Button size="sm" disabled={answer.isPending} onClick={() => respond('done')}>
            Done
          </Button>
          <Button size="sm" variant="outline" disabled={answer.isPending} onClick={() => respond('slipped')}>
            Slipped
          </Button>
        </div>
      ) : (
        mention.resolution && <p className="text-muted-foreground">{ANSWERS[mention.resolution]}</p>
      )}
    </li>
  );
}
