import { SlidersHorizontalIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { MEETING_STATUSES, type MeetingStatus } from '#shared/contracts/meetings.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Popover, PopoverContent, PopoverTrigger } from '#web/components/ui/popover.tsx';
import { STATUS_LABELS } from '../components/status-badge.tsx';

type Filters = { status?: MeetingStatus | undefined; participant?: string | undefined };
type FiltersMenuProps = Filters & { knownParticipants: string[]; onChange: (filters: Filters) => void };

const selectClass =
  'border-input h-9 w-full rounded-md border bg-transparent px-3 py-1 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50';

/** The Filters button: status and participant (matched by full name, any case). */
export function FiltersMenu({ status, participant, knownParticipants, onChange }: FiltersMenuProps) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<Filters>({ status, participant });
  const active = (status ? 1 : 0) + (participant ? 1 : 0);

  const openChange = (next: boolean) => {
    if (next) setDraft({ status, participant });
    setOpen(next);
  };
  const apply = (event: FormEvent) => {
    event.preventDefault();
    onChange({ status: draft.status, participant: draft.participant?.trim() || undefined });
    setOpen(false);
  };

  return (
    <Popover open={open} onOpenChange={openChange}>
      <PopoverTrigger asChild>
        <Button variant={active ? 'secondary' : 'outline'}>
          <SlidersHorizontalIcon aria-hidden="true" />
          Filters
          {active > 0 && <span className="rounded-full bg-primary px-1.5 text-xs text-primary-foreground">{active}</span>}
        </Button>
      </PopoverTrigger>
      <PopoverContent aria-label="Filters" align="end">
        <form className="grid gap-3" onSubmit={apply}>
          <div className="grid gap-1.5">
            <Label htmlFor="history-status">Status</Label>
            <select
              id="history-status"
              className={selectClass}
              value={draft.status ?? ''}
              onChange={(e) => setDraft((d) => ({ ...d, status: (e.target.value || undefined) as MeetingStatus | undefined }))}
            >
              <option value="">Any status</option>
              {MEETING_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {STATUS_LABELS[s]}
                </option>
              ))}
            </select>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="history-participant">Participant</Label>
            <Input
              id="history-participant"
              list="history-participants"
              placeholder="Full name, e.g. Sarah Miller"
              maxLength={100}
              value={draft.participant ?? ''}
              onChange={(e) => setDraft((d) => ({ ...d, participant: e.target.value }))}
            />
            <datalist id="history-participants">
              {knownParticipants.map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
          </div>
          <div className="flex justify-between gap-2">
            <Button
              type="button"
              variant="ghost"
              onClick={() => {
                onChange({});
                setOpen(false);
              }}
            >
              Clear
            </Button>
            <Button type="submit">Apply</Button>
          </div>
        </form>
      </PopoverContent>
    </Popover>
  );
}
