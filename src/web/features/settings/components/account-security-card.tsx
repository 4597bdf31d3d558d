import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { loadSupabase } from '#web/lib/supabase.ts';
import { MIN_PASSWORD_LENGTH } from '#web/lib/auth/auth-messages.ts';
import { SETTINGS_MESSAGES } from '../settings-messages.ts';

type PasswordErrors = { newPassword?: string; confirmPassword?: string };

/** The same minimum as sign-up (spec §5, §9), and both fields must agree; checked before anything is sent. */
export function validatePasswords(newPassword: string, confirmPassword: string): PasswordErrors {
  const errors: PasswordErrors = {};
  if ([...newPassword].length < MIN_PASSWORD_LENGTH) errors.newPassword = SETTINGS_MESSAGES.passwordTooShort;
  if (confirmPassword !== newPassword) errors.confirmPassword = SETTINGS_MESSAGES.passwordsDiffer;
  return errors;
}

/** The server's refusal in words: its own message where it is written for people (weak_password). */
export function passwordErrorMessage(error: { code?: string | undefined; message: string }): string {
  if (error.code === 'same_password') return SETTINGS_MESSAGES.samePassword;
  if (error.code === 'weak_password' && error.message) return error.message;
  if (error.code === 'insufficient_aal') return 'Your account uses two-factor authentication: sign in again with your code, then change the password.';
  return SETTINGS_MESSAGES.passwordFailed;
}

/**
 * 'Account Security' (spec §2): a real password change through PUT /auth/v1/user. The signed-in
 * session is the proof of identity (as in GoTrue), so the current password is only shown masked.
 */
export function AccountSecurityCard() {
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [errors, setErrors] = useState<PasswordErrors>({});
  const [saving, setSaving] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const found = validatePasswords(newPassword, confirmPassword);
    setErrors(found);
    if (found.newPassword || found.confirmPassword) return;
    setSaving(true);
    try {
      const { error } = await (await loadSupabase()).auth.updateUser({ password: newPassword });
      if (error) {
        const message = passwordErrorMessage(error);
        if (error.code === 'same_password' || error.code === 'weak_password') setErrors({ newPassword: message });
        toast.error(message);
        return;
      }
      setNewPassword('');
      setConfirmPassword('');
      toast.success(SETTINGS_MESSAGES.passwordUpdated, { description: SETTINGS_MESSAGES.passwordUpdatedDescription });
    } catch {
      toast.error(SETTINGS_MESSAGES.passwordFailed, { description: SETTINGS_MESSAGES.networkFailed });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Account Security</CardTitle>
        <CardDescription>Change the password you sign in with.</CardDescription>
      </CardHeader>
      <form className="grid gap-6" noValidate onSubmit={(event) => void onSubmit(event)}>
        <CardContent className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor="current-password">Current password</Label>
            {/* A placeholder, never the real password: the server does not keep it in a readable form. */}
            <Input id="current-password" type="password" value="••••••••" readOnly tabIndex={-1} className="bg-muted/50" autoComplete="off" />
          </div>
          <PasswordField id="new-password" label="New password" value={newPassword} error={errors.newPassword} onChange={setNewPassword} />
          <PasswordField
            id="confirm-password"
            label="Confirm new password"
            value={confirmPassword}
            error={errors.confirmPassword}
            onChange={setConfirmPassword}
          />
        </CardContent>
        <CardFooter className="justify-end">
          <Button type="submit" disabled={saving}>
            Update Password
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

function PasswordField({
  id,
  label,
  value,
  error,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const errorId = `${id}-error`;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="password"
        autoComplete="new-password"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {error && (
        <p id={errorId} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
