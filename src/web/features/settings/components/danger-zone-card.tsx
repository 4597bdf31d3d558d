import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'sonner';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '#web/components/ui/dialog.tsx';
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
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const remove = useDeleteAllData();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!sameEmail(typed, email) || remove.isPending) return;
    setError(null);
    remove.mutate(typed, {
      onSuccess: ({ deletedMeetings }) => {
        toast.success(SETTINGS_MESSAGES.dataDeleted, { description: SETTINGS_MESSAGES.dataDeletedDescription(deletedMeetings) });
        setOpen(false);
        setTyped('');
      },
      onError: (failure) => setError(refusalOf(failure)),
    });
  };

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setError(null);
      }}
      label="Delete All Data"
      title="Delete all data"
      explanation="This deletes all of your meetings, recordings, transcripts, notes, action items, share links and settings, at once and for good. Your account stays, and your other devices are signed out."
      error={error}
      busy={remove.isPending}
      canConfirm={sameEmail(typed, email)}
      onSubmit={onSubmit}
    >
      <EmailConfirmField email={email} value={typed} onChange={setTyped} disabled={remove.isPending} />
    </ConfirmDialog>
  );
}

function DeleteAccountDialog() {
  const { user, signOut } = useAuth();
  const email = user?.email ?? '';
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const remove = useDeleteAccount();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!sameEmail(typed, email) || password === '' || remove.isPending) return;
    setError(null);
    remove.mutate(
      { email: typed, password },
      {
        onSuccess: () => {
          toast.success(SETTINGS_MESSAGES.accountDeleted, { description: SETTINGS_MESSAGES.accountDeletedDescription });
          // The server ended every session already; this forgets it here too and leaves for the landing page.
          void signOut();
        },
        onError: (failure) => setError(refusalOf(failure)),
      },
    );
  };

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setError(null);
      }}
      label="Delete Account"
      title="Delete account"
      explanation="This deletes your account and everything in it — meetings, recordings, transcripts, notes, share links and settings — and signs you out everywhere. It cannot be undone."
      error={error}
      busy={remove.isPending}
      canConfirm={sameEmail(typed, email) && password !== ''}
      onSubmit={onSubmit}
    >
      <EmailConfirmField email={email} value={typed} onChange={setTyped} disabled={remove.isPending} />
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
  open,
  onOpenChange,
  label,
  title,
  explanation,
  error,
  busy,
  canConfirm,
  onSubmit,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  label: string;
  title: string;
  explanation: string;
  error: string | null;
  busy: boolean;
  canConfirm: boolean;
  onSubmit: (event: FormEvent) => void;
  children: ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
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
          {error && (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          )}
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
