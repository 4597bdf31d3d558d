import { useState, type FormEvent } from 'react';
import { toast } from '#web/lib/toast.ts';
import { Button } from '#web/components/ui/button.tsx';
import { CardDescription, CardTitle } from '#web/components/ui/card.tsx';
import { FormError } from '#web/components/ui/form-error.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { AUTH_MESSAGES, resetRequestErrorMessage } from '#web/lib/auth/auth-messages.ts';
import { loadSupabase } from '#web/lib/supabase.ts';
import { paths } from '#web/app/paths.ts';

/**
 * "Forgot password?" on /auth: asks the server (POST /auth/v1/recover) to email a recovery link
 * that opens /reset-password signed in for that one purpose. The answer is the same whether or not
 * an account has this address (the server does not say), so the page never tells either.
 */
export function ForgotPasswordForm({ initialEmail, onBack }: { initialEmail: string; onBack: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email')).trim();
    setBusy(true);
    setError(null);
    try {
      const client = await loadSupabase();
      const { error: failure } = await client.auth.resetPasswordForEmail(email, {
        redirectTo: `${window.location.origin}${paths.resetPassword.href()}`,
      });
      if (failure) {
        const message = resetRequestErrorMessage(failure);
        setError(message);
        toast.error(message);
        return;
      }
      setSentTo(email);
      toast.success(AUTH_MESSAGES.resetLinkSent);
    } catch {
      setError(AUTH_MESSAGES.resetRequestFailed);
      toast.error(AUTH_MESSAGES.resetRequestFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} className="grid gap-4">
      <CardTitle>Reset your password</CardTitle>
      <CardDescription>Enter the email you signed up with and we will send you a link to choose a new password.</CardDescription>
      <div className="grid gap-2">
        <Label htmlFor="reset-email">Email</Label>
        <Input
          id="reset-email"
          name="email"
          type="email"
          autoComplete="email"
          required
          disabled={busy}
          defaultValue={initialEmail}
          placeholder="you@company.com"
        />
      </div>
      {sentTo && (
        <p role="status" className="text-sm text-muted-foreground">
          {AUTH_MESSAGES.resetLinkSent} If {sentTo} has an account here, the link arrives in a minute or two; it works once.
        </p>
      )}
      <FormError>{error}</FormError>
      <Button type="submit" disabled={busy} className="w-full">
        {busy ? 'Sending...' : 'Send Reset Link'}
      </Button>
      <Button type="button" variant="ghost" disabled={busy} onClick={onBack}>
        Back to Sign In
      </Button>
    </form>
  );
}
