import { useId } from 'react';
import { UNASSIGNED, type ActionItemsResponse, type TrackerStatus } from '#shared/contracts/tracker.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { formatDate } from '#web/lib/format.ts';
import type { TrackerParams } from './tracker-params.ts';

const STATUS_CHOICES: { value: TrackerStatus; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'overdue', label: 'Overdue' },
  { value: 'done', label: 'Done' },
  { value: 'dismissed', label: 'Dismissed' },
  { value: 'all', label: 'All' },
];

export const statusLabel = (status: TrackerStatus) => STATUS_CHOICES.find((choice) => choice.value === status)?.label ?? status;

const countOf = (status: TrackerStatus, counts: ActionItemsResponse['counts']) =>
  status === 'all' ? counts.open + counts.done + counts.dismissed : counts[status];

// A native select: keyboard and screen-reader behaviour for free, and the phone's own picker.
const selectClass =
  'border-input h-9 w-full rounded-md border bg-transparent px-3 py-1 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:w-56';

type TrackerFiltersProps = {
  params: TrackerParams;
  /** The last answer's counts and choices; undefined while the first one loads. */
  data: ActionItemsResponse | undefined;
  onChange: (changes: Partial<TrackerParams>) => void;
};

/** Status (with how many items each holds), owner and meeting. */
export function TrackerFilters({ params, data, onChange }: TrackerFiltersProps) {
  const ownerId = useId();
  const meetingId = useId();
  const owners = data?.assignees ?? [];
  const meetings = data?.meetings ?? [];
  return (
    <div className="mb-4 grid gap-3">
      <div role="group" aria-label="Status" className="flex flex-wrap gap-1">
        {STATUS_CHOICES.map((choice) => (
          <Button
            key={choice.value}
            size="sm"
            variant={params.status === choice.value ? 'default' : 'outline'}
            aria-pressed={params.status === choice.value}
            onClick={() => onChange({ status: choice.value })}
          >
            {choice.label}
            {/* The space keeps the count a word of the button's name: "Open 4". */}
            {data && ' '}
            {data && <span className="rounded-full bg-background/20 px-1.5 text-xs tabular-nums">{countOf(choice.value, data.counts)}</span>}
          </Button>
        ))}
      </div>
      <div className="flex flex-col gap-3 sm:flex-row">
        <div className="grid gap-1.5">
          <Label htmlFor={ownerId}>Owner</Label>
          <select id={ownerId} className={selectClass} value={params.owner ?? ''} onChange={(e) => onChange({ owner: e.target.value || undefined })}>
            <option value="">Everyone</option>
            <option value={UNASSIGNED}>Unassigned</option>
            {/* An owner from an old link who owns nothing now still shows as chosen. */}
            {params.owner && params.owner !== UNASSIGNED && !owners.includes(params.owner) && <option value={params.owner}>{params.owner}</option>}
            {owners.map((owner) => (
              <option key={owner} value={owner}>
                {owner}
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={meetingId}>Meeting</Label>
          <select id={meetingId} className={selectClass} value={params.meeting ?? ''} onChange={(e) => onChange({ meeting: e.target.value || undefined })}>
            <option value="">All meetings</option>
            {params.meeting && !meetings.some((m) => m.id === params.meeting) && <option value={params.meeting}>A meeting without action items</option>}
            {meetings.map((meeting) => (
              <option key={meeting.id} value={meeting.id}>
                {meeting.title} · {formatDate(meeting.startedAt)}
                {meeting.sharedBy && ` · Shared by ${meeting.sharedBy.name}`}
              </option>
            ))}
          </select>
        </div>
      </div>
    </div>
  );
}
