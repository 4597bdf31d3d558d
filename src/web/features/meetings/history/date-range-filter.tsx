import { CalendarIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { FormError } from '#web/components/ui/form-error.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Popover, PopoverContent, PopoverTrigger } from '#web/components/ui/popover.tsx';

type DateRange = { from?: string | undefined; to?: string | undefined };
type DateRangeFilterProps = DateRange & { onChange: (range: DateRange) => void };

// Dates are calendar days (YYYY-MM-DD); noon UTC keeps them on the same day in every time zone.
const dayFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const day = (value: string) => dayFormat.format(new Date(`${value}T12:00:00Z`));

export function rangeLabel({ from, to }: DateRange): string {
  if (from && to) return from === to ? day(from) : `${day(from)} – ${day(to)}`;
  if (from) return `From ${day(from)}`;
  if (to) return `Until ${day(to)}`;
  return 'Date Range';
}

/** The Date Range button: a popover with two native date inputs that map to ?from= and ?to=. */
export function DateRangeFilter({ from, to, onChange }: DateRangeFilterProps) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<DateRange>({ from, to });
  const invalid = Boolean(draft.from && draft.to && draft.from > draft.to);

  const openChange = (next: boolean) => {
    if (next) setDraft({ from, to }); // start from what is applied, not from an abandoned edit
    setOpen(next);
  };
  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (invalid) return;
    onChange({ from: draft.from || undefined, to: draft.to || undefined });
    setOpen(false);
  };

  return (
    <Popover open={open} onOpenChange={openChange}>
      <PopoverTrigger asChild>
        <Button variant={from || to ? 'secondary' : 'outline'}>
          <CalendarIcon aria-hidden="true" />
          {rangeLabel({ from, to })}
        </Button>
      </PopoverTrigger>
      <PopoverContent aria-label="Date range">
        <form className="grid gap-3" onSubmit={apply}>
          <div className="grid gap-1.5">
            <Label htmlFor="history-from">From</Label>
            <Input id="history-from" type="date" value={draft.from ?? ''} max={draft.to} onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))} />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="history-to">To</Label>
            <Input id="history-to" type="date" value={draft.to ?? ''} min={draft.from} onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))} />
          </div>
          {invalid && <FormError>The start date must be on or before the end date.</FormError>}
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
            <Button type="submit" disabled={invalid}>
              Apply
            </Button>
          </div>
        </form>
      </PopoverContent>
    </Popover>
  );
}
