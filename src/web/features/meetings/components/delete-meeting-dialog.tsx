import { AlertDialog as AlertDialogPrimitive } from 'radix-ui';
import { toast } from '#web/lib/toast.ts';
import { Button } from '#web/components/ui/button.tsx';
import { useDeleteMeeting } from '../api.ts';

type DeleteMeetingDialogProps = { meetingId: string; title: string; open: boolean; onOpenChange: (open: boolean) => void };

/** Delete asks first (issue 3): an alert dialog that names the meeting and says what goes with it. */
export function DeleteMeetingDialog({ meetingId, title, open, onOpenChange }: DeleteMeetingDialogProps) {
  const remove = useDeleteMeeting();
  // mutateAsync, not mutate's callbacks: those are skipped once this dialog unmounts, and the list
  // read again without the meeting can take its card (and this dialog) away before they run.
  const confirm = () =>
    remove.mutateAsync(meetingId).then(
      () => {
        onOpenChange(false);
        toast.success('Meeting deleted', { description: title });
      },
      (error: Error) => toast.error(error.message),
    );

  return (
    <AlertDialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialogPrimitive.Portal>
        <AlertDialogPrimitive.Overlay className="data-[state=open]:animate-in data-[state=closed]:animate-out data-[state=closed]:fade-out-0 data-[state=open]:fade-in-0 fixed inset-0 z-50 bg-black/50" />
        <AlertDialogPrimitive.Content className="bg-background data-[state=open]:animate-in data-[state=closed]:animate-out data-[state=closed]:fade-out-0 data-[state=open]:fade-in-0 fixed top-[50%] left-[50%] z-50 grid w-full max-w-[calc(100%-2rem)] translate-x-[-50%] translate-y-[-50%] gap-4 rounded-lg border p-6 shadow-lg sm:max-w-lg">
          <AlertDialogPrimitive.Title className="text-lg font-semibold">Delete this meeting?</AlertDialogPrimitive.Title>
          <AlertDialogPrimitive.Description className="text-sm text-muted-foreground">
            “{title}” will be deleted for good, with its transcript, insights, audio and share links. This cannot be undone.
          </AlertDialogPrimitive.Description>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialogPrimitive.Cancel asChild>
              <Button variant="outline" disabled={remove.isPending}>
                Cancel
              </Button>
            </AlertDialogPrimitive.Cancel>
            {/* Not AlertDialog.Action: that would close the dialog before the server has answered. */}
            <Button variant="destructive" onClick={confirm} disabled={remove.isPending}>
              {remove.isPending ? 'Deleting...' : 'Delete'}
            </Button>
          </div>
        </AlertDialogPrimitive.Content>
      </AlertDialogPrimitive.Portal>
    </AlertDialogPrimitive.Root>
  );
}
