import { toast } from '#web/lib/toast.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '#web/components/ui/dialog.tsx';
import { useMeetingStats, useRemoveSamples } from '../api.ts';

/**
 * New accounts start with sample meetings; one action removes them all (the person's own stay).
 * Offered while any sample is left, however many newer meetings push them off the first page.
 */
export function RemoveSamples({ className }: { className?: string }) {
  const { data } = useMeetingStats();
  const remove = useRemoveSamples();
  const samples = data?.sampleMeetings ?? 0;
  if (samples === 0) return null;
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" className={className}>
          Remove sample meetings
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Remove the sample meetings?</DialogTitle>
          <DialogDescription>
            The {samples === 1 ? 'meeting' : `${samples} meetings`} badged “Sample” {samples === 1 ? 'is' : 'are'} deleted with{' '}
            {samples === 1 ? 'its' : 'their'} transcripts and insights. Your own meetings stay.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button
            variant="destructive"
            disabled={remove.isPending}
            onClick={() =>
              // Awaited, not mutate's callbacks: once the samples are gone this button's card goes too,
              // often before the answer's callbacks would run, and the toast must still show.
              remove.mutateAsync().then(
                ({ deleted }) => toast.success(`${deleted} sample meeting${deleted === 1 ? '' : 's'} removed`),
                (error: Error) => toast.error(error.message),
              )
            }
          >
            Remove sample meetings
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
