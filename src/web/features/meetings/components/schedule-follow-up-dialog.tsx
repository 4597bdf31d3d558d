import { useId, useState, type FormEvent } from 'react';
import { calendarEndpoints } from '#shared/contracts/calendar.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '#web/components/ui/dialog.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { api } from '#web/lib/api-client.ts';
import { saveBlob } from '#web/lib/download-file.ts';
import { toast } from '#web/lib/toast.ts';

type ScheduleFollowUpDialogProps = { meetingId: string; title: string; open: boolean; onOpenChange: (open: boolean) => void };

/** A week from now at 10:00 local time, as a datetime-local value. */
function defaultStart(): string {
  const date = new Date(Date.now() + 7 * 86_400_000);
  date.setHours(10, 0, 0, 0);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * "Schedule follow-up": an event with the meeting's open action items, added to the connected
 * Google Calendar, or downloaded as an .ics invitation any calendar opens.
 */
export function ScheduleFollowUpDialog({ meetingId, title, open, onOpenChange }: ScheduleFollowUpDialogProps) {
  const id = useId();
  const [start, setStart] = useState(defaultStart);
  const [minutes, setMinutes] = useState(30);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const at = new Date(start);
    if (Number.isNaN(at.getTime())) return setError('Choose a date and time.');
    setBusy(true);
    setError(null);
    void api(calendarEndpoints.followUp, { body: { meetingId, start: at.toISOString(), durationMinutes: minutes } })
      .then(
        (followUp) => {
          if (followUp.kind === 'ics') {
            saveBlob(new Blob([followUp.ics], { type: 'text/calendar' }), followUp.fileName);
            toast.success('Follow-up invitation downloaded', { description: 'Open it to add the follow-up to your calendar.' });
          } else {
            toast.success('Follow-up added to Google Calendar', { description: title });
          }
          onOpenChange(false);
        },
        (failure: Error) => setError(failure.message),
      )
      .finally(() => setBusy(false));
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Schedule follow-up</DialogTitle>
          <DialogDescription>A calendar event for “{title}” with its open action items in the description.</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor={`${id}-start`}>Starts</Label>
            <Input id={`${id}-start`} type="datetime-local" required value={start} onChange={(e) => setStart(e.target.value)} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-minutes`}>Length (minutes)</Label>
            <Input
              id={`${id}-minutes`}
              type="number"
              min={5}
              max={480}
              step={5}
              required
              value={minutes}
              onChange={(e) => setMinutes(Number(e.target.value))}
            />
          </div>
          {error && (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          )}
          <DialogFooter>
            <Button type="submit" disabled={busy}>
              {busy ? 'Scheduling…' : 'Schedule follow-up'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
