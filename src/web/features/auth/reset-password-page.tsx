import { Loader2Icon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { Logo } from '#web/components/logo.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { FormError } from '#web/components/ui/form-error.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { AUTH_MESSAGES, MIN_PASSWORD_LENGTH } from '#web/lib/auth/auth-messages.ts';
import { useAuth } from '#web/lib/auth/use-auth.ts';
import { loadSupabase } from '#web/lib/supabase.ts';
import { paths } from '#web/app/paths.ts';
import { MfaChallengeForm } from './auth-page.tsx';
import { MAIN_CONTENT_ID } from '#web/components/layout/skip-link.tsx';

/**
 * /reset-password: where a recovery email's link lands. The server's /verify opened a session for
 * this purpose and the auth client picked it up from the URL (PASSWORD_RECOVERY); here the person
 * chooses a new password, which needs no current password in such a session, and is then signed
 * in. An expired or used link leaves no session: the page says so and offers a new one.
 */
export function ResetPasswordPage() {
  const { user, loading, mfaRequired } = useAuth();
  const [verified, setVerified] = useState(false);
  return (
    <div className="flex min-h-svh flex-col bg-gradient-to-b from-accent/60 to-background">
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="mx-auto flex w-full max-w-md flex-1 flex-col items-center px-4 py-12 outline-none">
        <Logo size="lg" className="mb-6" />
        <Card className="w-full">
          {loading ? (
            <CardContent role="status" className="flex items-center justify-center gap-3 py-6 text-muted-foreground">
              <Loader2Icon className="size-5 animate-spin text-primary" aria-hidden="true" />
              Loading...
            </CardContent>
          ) : !user ? (
            <>
              <CardHeader>
                <CardTitle>Reset your password</CardTitle>
                <CardDescription role="alert">{AUTH_MESSAGES.resetLinkInvalid}</CardDescription>
              </CardHeader>
              <CardContent>
                <Button asChild className="w-full">
                  <Link to={paths.auth.href()}>Back to Sign In</Link>
                </Button>
              </CardContent>
            </>
          ) : mfaRequired && !verified ? (
            <CardContent>
              <MfaChallengeForm onVerified={() => setVerified(true)} />
            </CardContent>
          ) : (
            <NewPasswordForm email={user.email ?? ''} />
          )}
        </Card>
      </main>
    </div>
  );
}

function NewPasswordForm({ email }: { email: string }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password'));
    const found = newPasswordProblem(password, String(form.get('confirm')));
    setError(found);
    if (found) return;
    setBusy(true);
    try {
      const { error: failure } = await (await loadSupabase()).auth.updateUser({ password });
      if (failure) {
        const message = resetErrorMessage(failure);
        setError(message);
        toast.error(message);
        return;
      }
      toast.success(AUTH_MESSAGES.passwordReset, { description: AUTH_MESSAGES.passwordResetDescription });
      void navigate(paths.dashboard.href(), { replace: true });
    } catch {
      setError(AUTH_MESSAGES.passwordResetFailed);
      toast.error(AUTH_MESSAGES.passwordResetFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <CardHeader>
        <CardTitle>Choose a new password</CardTitle>
        <CardDescription>For {email}. You will stay signed in here; your other devices will be signed out.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4" onSubmit={(event) => void onSubmit(event)}>
          {/* The account's address for password managers, which save the new password under it. */}
          <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
          <div className="grid gap-2">
            <Label htmlFor="reset-password">New password</Label>
            <Input
              id="reset-password"
              name="password"
              type="password"
              autoComplete="new-password"
              required
              disabled={busy}
              aria-describedby="reset-password-hint"
            />
            <p id="reset-password-hint" className="text-xs text-muted-foreground">
              At least {MIN_PASSWORD_LENGTH} characters.
            </p>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="reset-confirm">Confirm new password</Label>
            <Input id="reset-confirm" name="confirm" type="password" autoComplete="new-password" required disabled={busy} />
          </div>
          <FormError>{error}</FormError>
          <Button type="submit" disabled={busy} className="w-full">
            {busy ? 'Saving...' : 'Set New Password'}
          </Button>
        </form>
      </CardContent>
    </>
  );
}

/** Checked before anything is sent: the sign-up minimum (spec §5) and two fields that agree. */
function newPasswordProblem(password: string, confirm: string): string | null {
  if ([...password].length < MIN_PASSWORD_LENGTH) return AUTH_MESSAGES.passwordTooShort;
  if (password !== confirm) return 'Passwords do not match.';
  return null;
}

/** The server's refusal in words (PUT /auth/v1/user's codes). */
function resetErrorMessage(error: { code?: string | undefined; message: string }): string {
  if (error.code === 'same_password') return 'New password should be different from the old password.';
  if (error.code === 'weak_password' && error.message) return error.message;
  // Not a session from a reset link (someone signed in opened this page): Settings asks for the current password.
  if (error.code === 'current_password_required')
    return 'This page is for reset links. To change your password while signed in, use Settings › Account Security.';
  if (error.code === 'session_not_found') return AUTH_MESSAGES.resetLinkInvalid;
  return AUTH_MESSAGES.passwordResetFailed;
}
