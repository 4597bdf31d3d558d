import { toast } from '#web/lib/toast.ts';
import { Button } from '#web/components/ui/button.tsx';
import { DeferredDialog } from '#web/components/ui/deferred-dialog.tsx';
import { useMeetingStats, useRemoveSamples } from '../api.ts';

/**
 * New accounts start with sample meetings; one action removes them all (the person's own stay).
 * Offered while any sample is left, however many newer meetings push them off the first page. The
 * dashboard shows it, so the dialog's code comes when first wanted, not with the first page.
 */
export function RemoveSamples({ className }: { className?: string }) {
  const { data } = useMeetingStats();
  const remove = useRemoveSamples();
  const samples = data?.sampleMeetings ?? 0;
  if (samples === 0) return null;
  return (
    <DeferredDialog
      trigger={
        <Button variant="outline" size="sm" className={className}>
          Remove sample meetings
        </Button>
      }
    >
      {(dialog) => (
        <>
          <dialog.DialogHeader>
            <dialog.DialogTitle>Remove the sample meetings?</dialog.DialogTitle>
            <dialog.DialogDescription>
              The {samples === 1 ? 'meeting' : `${samples} meetings`} badged “Sample” {samples === 1 ? 'is' : 'are'} deleted with{' '}
              {samples === 1 ? 'its' : 'their'} transcripts and insights. Your own meetings stay.
            </dialog.DialogDescription>
          </dialog.DialogHeader>
          <dialog.DialogFooter>
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
          </dialog.DialogFooter>
        </>
      )}
    </DeferredDialog>
  );
}
