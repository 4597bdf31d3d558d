import { useState, type FormEvent } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '#web/components/ui/dialog.tsx';
import { FormError } from '#web/components/ui/form-error.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { useAuth } from '#web/lib/auth/use-auth.ts';
import { loadSupabase } from '#web/lib/supabase.ts';
import { EMAIL_CHANGE_MESSAGES as TEXT, SETTINGS_MESSAGES } from '../settings-messages.ts';

type Errors = { email?: string; password?: string; form?: string };

/** The server's refusal in words, and the field it belongs to. */
export function emailChangeError(error: { code?: string | undefined; message: string }): Errors {
  switch (error.code) {
    case 'current_password_invalid':
      return { password: SETTINGS_MESSAGES.currentPasswordWrong };
    case 'current_password_required':
      return { password: SETTINGS_MESSAGES.currentPasswordMissing };
    case 'email_exists':
      return { email: TEXT.taken };
    case 'validation_failed':
      return { email: TEXT.invalid };
    case 'insufficient_aal':
      return { form: TEXT.needsSecondFactor };
    case 'over_email_send_rate_limit':
    case 'over_request_rate_limit':
      return { form: error.message };
    default:
      return { form: TEXT.failed };
  }
}

/**
 * Settings › Profile's email change. Asks for the new address and the current password (a stolen
 * session alone cannot move the account); the server then mails a confirmation link to the current
 * address and to the new one, and the address changes once both are opened. So after sending, the
 * dialog says to check both inboxes; until then the account keeps its address (shown as pending).
 */
export function ChangeEmailDialog() {
  const { user } = useAuth();
  const current = user?.email ?? '';
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setEmail('');
      setPassword('');
      setErrors({});
      setSentTo(null);
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    // React passes events up through the portal: the Personal Information form around the trigger must not see this one.
    event.stopPropagation();
    if (busy) return;
    const address = email.trim().toLowerCase();
    const found: Errors = {};
    if (address === '') found.email = TEXT.missing;
    else if (address === current.toLowerCase()) found.email = TEXT.same;
    if (password === '') found.password = SETTINGS_MESSAGES.currentPasswordMissing;
    setErrors(found);
    if (found.email || found.password) return;
    setBusy(true);
    try {
      const { auth } = await loadSupabase();
      const { error } = await auth.updateUser({ email: address, current_password: password }, { emailRedirectTo: `${window.location.origin}/settings` });
      if (error) {
        setErrors(emailChangeError(error));
        return;
      }
      setPassword('');
      setSentTo(address);
    } catch {
      setErrors({ form: SETTINGS_MESSAGES.networkFailed });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button type="button" variant="outline" size="sm">
          {TEXT.open}
        </Button>
      </DialogTrigger>
      <DialogContent>
        {sentTo ? (
          <div className="grid gap-4">
            <DialogHeader>
              <DialogTitle>{TEXT.sentTitle}</DialogTitle>
              <DialogDescription>{TEXT.sent(current, sentTo)}</DialogDescription>
            </DialogHeader>
            <DialogFooter>
              <DialogClose asChild>
                <Button type="button">Done</Button>
              </DialogClose>
            </DialogFooter>
          </div>
        ) : (
          <form className="grid gap-4" noValidate onSubmit={(event) => void onSubmit(event)}>
            <DialogHeader>
              <DialogTitle>{TEXT.title}</DialogTitle>
              <DialogDescription>{TEXT.explanation}</DialogDescription>
            </DialogHeader>
            <div className="grid gap-2">
              <Label htmlFor="change-email-address">New email</Label>
              <Input
                id="change-email-address"
                type="email"
                autoComplete="email"
                value={email}
                disabled={busy}
                aria-invalid={errors.email ? true : undefined}
                aria-describedby={errors.email ? 'change-email-address-error' : undefined}
                onChange={(event) => setEmail(event.target.value)}
              />
              {errors.email && (
                <p id="change-email-address-error" className="text-sm text-destructive">
                  {errors.email}
                </p>
              )}
            </div>
            <div className="grid gap-2">
              <Label htmlFor="change-email-password">Current password</Label>
              <Input
                id="change-email-password"
                type="password"
                autoComplete="current-password"
                value={password}
                disabled={busy}
                aria-invalid={errors.password ? true : undefined}
                aria-describedby={errors.password ? 'change-email-password-error' : undefined}
                onChange={(event) => setPassword(event.target.value)}
              />
              {errors.password && (
                <p id="change-email-password-error" className="text-sm text-destructive">
                  {errors.password}
                </p>
              )}
            </div>
            <FormError>{errors.form}</FormError>
            <DialogFooter>
              <DialogClose asChild>
                <Button type="button" variant="outline" disabled={busy}>
                  Cancel
                </Button>
              </DialogClose>
              <Button type="submit" disabled={busy}>
                {busy ? TEXT.sending : TEXT.submit}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
