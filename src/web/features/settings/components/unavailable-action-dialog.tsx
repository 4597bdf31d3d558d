import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '#web/components/ui/dialog.tsx';

/**
 * A destructive action this installation cannot do yet: the button opens a dialog that says so,
 * rather than a confirmation that would end in a fake success.
 */
export function UnavailableActionDialog({ label, title, explanation }: { label: string; title: string; explanation: string }) {
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="destructive">{label}</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{explanation}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Close</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
