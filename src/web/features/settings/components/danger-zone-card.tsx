import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { toast } from '#web/lib/toast.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '#web/components/ui/dialog.tsx';
import { FormError } from '#web/components/ui/form-error.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { ApiError } from '#web/lib/api-error.ts';
import { useAuth } from '#web/lib/auth/use-auth.ts';
import { useDeleteAccount, useDeleteAllData } from '../api.ts';
import { SETTINGS_MESSAGES } from '../settings-messages.ts';

/** Privacy › Danger Zone (spec §2): Delete All Data and Delete Account, each confirmed by typing the account's email. */
export function DangerZoneCard() {
  return (
    <Card className="border-destructive/50">
      <CardHeader>
        <CardTitle className="text-destructive">Danger Zone</CardTitle>
        <CardDescription>Actions that cannot be undone.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-2">
        <DeleteAllDataDialog />
        <DeleteAccountDialog />
      </CardContent>
    </Card>
  );
}

const sameEmail = (typed: string, email: string) => typed.trim().toLowerCase() === email.toLowerCase();

/** The server's refusal in words; its message is written for people (a mistyped email, a wrong password, what holds the account back). */
const refusalOf = (error: unknown): string =>
  error instanceof ApiError && error.code !== 'INTERNAL' && error.code !== 'UNKNOWN' && error.code !== 'BAD_RESPONSE'
    ? error.message
    : SETTINGS_MESSAGES.deleteFailed;

function DeleteAllDataDialog() {
  const { user } = useAuth();
  const email = user?.email ?? '';
  const dialog = useDangerDialog();
  const remove = useDeleteAllData();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!sameEmail(dialog.typed, email) || remove.isPending) return;
    void dialog.confirm(
      () => remove.mutateAsync(dialog.typed),
      ({ deletedMeetings }) => {
        toast.success(SETTINGS_MESSAGES.dataDeleted, { description: SETTINGS_MESSAGES.dataDeletedDescription(deletedMeetings) });
        dialog.close();
      },
    );
  };

  return (
    <ConfirmDialog
      dialog={dialog}
      label="Delete All Data"
      title="Delete all data"
      explanation="This deletes all of your meetings, recordings, transcripts, notes, action items, share links and settings, at once and for good. Your account stays, and your other devices are signed out."
      busy={remove.isPending}
      canConfirm={sameEmail(dialog.typed, email)}
      onSubmit={onSubmit}
    >
      <EmailConfirmField email={email} value={dialog.typed} onChange={dialog.setTyped} disabled={remove.isPending} />
    </ConfirmDialog>
  );
}

function DeleteAccountDialog() {
  const { user, signOut } = useAuth();
  const email = user?.email ?? '';
  const dialog = useDangerDialog();
  const [password, setPassword] = useState('');
  const remove = useDeleteAccount();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!sameEmail(dialog.typed, email) || password === '' || remove.isPending) return;
    void dialog.confirm(
      () => remove.mutateAsync({ email: dialog.typed, password }),
      () => {
        toast.success(SETTINGS_MESSAGES.accountDeleted, { description: SETTINGS_MESSAGES.accountDeletedDescription });
        // The server ended every session already; this forgets it here too and leaves for the landing page.
        void signOut();
      },
    );
  };

  return (
    <ConfirmDialog
      dialog={dialog}
      label="Delete Account"
      title="Delete account"
      explanation="This deletes your account and everything in it — meetings, recordings, transcripts, notes, share links and settings — and signs you out everywhere. It cannot be undone."
      busy={remove.isPending}
      canConfirm={sameEmail(dialog.typed, email) && password !== ''}
      onSubmit={onSubmit}
    >
      <EmailConfirmField email={email} value={dialog.typed} onChange={dialog.setTyped} disabled={remove.isPending} />
      <div className="grid gap-2">
        <Label htmlFor="delete-account-password">Your password</Label>
        <Input
          id="delete-account-password"
          type="password"
          autoComplete="current-password"
          value={password}
          disabled={remove.isPending}
          onChange={(event) => setPassword(event.target.value)}
        />
      </div>
    </ConfirmDialog>
  );
}

type DangerDialog = ReturnType<typeof useDangerDialog>;

/** What both dialogs keep: open or not, the email typed, and the server's refusal (forgotten on closing). */
function useDangerDialog() {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  return {
    open,
    typed,
    setTyped,
    error,
    onOpenChange: (next: boolean) => {
      setOpen(next);
      if (!next) setError(null);
    },
    close: () => {
      setOpen(false);
      setTyped('');
    },
    /**
     * Runs the deletion and then `onDone`, or shows the refusal. Awaited rather than mutate's callbacks:
     * those are skipped when the dialog is gone by the time the server answers (deleting an account
     * ends the session, which can sign this page out first), and the toast and sign-out must still happen.
     */
    confirm: async <T,>(run: () => Promise<T>, onDone: (result: T) => void) => {
      setError(null);
      let result: T;
      try {
        result = await run();
      } catch (failure) {
        setError(refusalOf(failure));
        return;
      }
      onDone(result);
    },
  };
}

function EmailConfirmField({ email, value, onChange, disabled }: { email: string; value: string; onChange: (value: string) => void; disabled: boolean }) {
  const id = useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>
        Type <span className="font-medium">{email}</span> to confirm
      </Label>
      <Input id={id} type="email" autoComplete="off" value={value} disabled={disabled} onChange={(event) => onChange(event.target.value)} />
    </div>
  );
}

function ConfirmDialog({
  dialog,
  label,
  title,
  explanation,
  busy,
  canConfirm,
  onSubmit,
  children,
}: {
  dialog: DangerDialog;
  label: string;
  title: string;
  explanation: string;
  busy: boolean;
  canConfirm: boolean;
  onSubmit: (event: FormEvent) => void;
  children: ReactNode;
}) {
  return (
    <Dialog open={dialog.open} onOpenChange={dialog.onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="destructive">{label}</Button>
      </DialogTrigger>
      <DialogContent>
        <form className="grid gap-4" onSubmit={onSubmit}>
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{explanation}</DialogDescription>
          </DialogHeader>
          {children}
          <FormError>{dialog.error}</FormError>
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline" disabled={busy}>
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" variant="destructive" disabled={!canConfirm || busy}>
              {busy ? 'Deleting...' : label}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
