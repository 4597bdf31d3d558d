import { CheckCircle2Icon, LightbulbIcon, SparklesIcon, TagIcon, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import type { Insight, NotesStatus } from '#shared/contracts/notes.ts';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { formatClock, formatDay } from '#web/lib/format.ts';

const INSIGHT_GROUPS: { kind: Insight['kind']; title: string; icon: LucideIcon }[] = [
  { kind: 'key_point', title: 'Key points', icon: SparklesIcon },
  { kind: 'action_item', title: 'Action items', icon: CheckCircle2Icon },
  { kind: 'decision', title: 'Decisions', icon: LightbulbIcon },
  { kind: 'topic', title: 'Topics', icon: TagIcon },
];

/** Why a reader sees no (or not the latest) notes; the owner's failure reason is not theirs to read. */
function statusMessage(status: NotesStatus, hasItems: boolean): string | null {
  if (status === 'queued' || status === 'running') return 'The notes of this meeting are still being written. Reload the page in a moment to see them.';
  if (status === 'failed') return 'The notes of this meeting could not be written.';
  if (status === 'ready' && !hasItems) return 'No key points, action items, decisions or topics were found in this meeting.';
  return null;
}

/** The id of a transcript line on the shared page, which an item's or a sentence's time links to. */
export const lineAnchor = (segmentId: string) => `line-${segmentId}`;

/** A time that takes the reader to the transcript line it cites, on the same page. */
export function MomentLink({ segmentId, children, time }: { segmentId: string; children: ReactNode; time: string }) {
  return (
    <a
      href={`#${lineAnchor(segmentId)}`}
      className="rounded-sm font-mono text-xs leading-5 text-primary hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
      aria-label={`Go to where this was said: ${time}`}
    >
      {children}
    </a>
  );
}

/** Where it was said: "00:35", or a topic's span "00:00–01:10". */
const stampOf = (item: Insight) =>
  item.kind === 'topic' && item.endMs !== null && item.endMs > item.startMs
    ? `${formatClock(item.startMs / 1000)}–${formatClock(item.endMs / 1000)}`
    : formatClock(item.startMs / 1000);

function dueOf(item: Insight): string {
  if (!item.due) return item.dueText ? `Due ${item.dueText}` : 'No due date';
  return item.dueText ? `Due ${item.dueText} (${formatDay(item.due)})` : `Due ${formatDay(item.due)}`;
}

/**
 * The notes on the public page of a shared meeting, read-only: key points, action items (owner,
 * due date, done or open), decisions and topics, each with the moment it was said, which links to
 * that line of the transcript below.
 */
export function SharedNotes({ insights, status }: { insights: Insight[]; status: NotesStatus }) {
  const groups = INSIGHT_GROUPS.map((g) => ({
    ...g,
    items: insights.filter((i) => i.kind === g.kind && i.status !== 'dismissed').sort((a, b) => a.startMs - b.startMs),
  })).filter((g) => g.items.length > 0);
  const message = statusMessage(status, groups.length > 0);
  if (groups.length === 0 && !message) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Insights</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-5">
        {message && <p className="text-sm text-muted-foreground">{message}</p>}
        {groups.length > 0 && (
          <div className="grid gap-5 sm:grid-cols-2">
            {groups.map((group) => (
              <section key={group.kind} aria-label={group.title}>
                <h3 className="mb-2 flex items-center gap-2 text-sm font-semibold">
                  <group.icon className="size-4 text-primary" aria-hidden="true" />
                  {group.title}
                </h3>
                <ul className="grid gap-2 text-sm">
                  {group.items.map((item) => (
                    <li key={item.id} className="grid grid-cols-[auto_1fr] gap-2">
                      <MomentLink segmentId={item.segmentIds[0]!} time={formatClock(item.startMs / 1000)}>
                        {stampOf(item)}
                      </MomentLink>
                      <div>
                        <p className={item.status === 'done' ? 'text-muted-foreground line-through' : undefined}>{item.text}</p>
                        {item.kind === 'action_item' && (
                          <p className="text-xs text-muted-foreground">
                            {[item.assignee?.trim() || 'Unassigned', dueOf(item), item.status === 'done' ? 'Done' : 'Open'].join(' · ')}
                          </p>
                        )}
                      </div>
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
