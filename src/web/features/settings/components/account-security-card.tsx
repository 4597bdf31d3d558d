import { useState, type FormEvent } from 'react';
import { toast } from '#web/lib/toast.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { loadSupabase } from '#web/lib/supabase.ts';
import { MIN_PASSWORD_LENGTH } from '#web/lib/auth/auth-messages.ts';
import { SETTINGS_MESSAGES } from '../settings-messages.ts';

type PasswordErrors = { currentPassword?: string; newPassword?: string; confirmPassword?: string };

/** The current password, the same minimum as sign-up (spec §5, §9), and both new fields must agree; checked before anything is sent. */
export function validatePasswords(currentPassword: string, newPassword: string, confirmPassword: string): PasswordErrors {
  const errors: PasswordErrors = {};
  if (currentPassword === '') errors.currentPassword = SETTINGS_MESSAGES.currentPasswordMissing;
  if ([...newPassword].length < MIN_PASSWORD_LENGTH) errors.newPassword = SETTINGS_MESSAGES.passwordTooShort;
  if (confirmPassword !== newPassword) errors.confirmPassword = SETTINGS_MESSAGES.passwordsDiffer;
  return errors;
}

/** The server's refusal in words: its own message where it is written for people (weak_password). */
export function passwordErrorMessage(error: { code?: string | undefined; message: string }): string {
  if (error.code === 'same_password') return SETTINGS_MESSAGES.samePassword;
  if (error.code === 'current_password_invalid') return SETTINGS_MESSAGES.currentPasswordWrong;
  if (error.code === 'current_password_required') return SETTINGS_MESSAGES.currentPasswordMissing;
  if (error.code === 'weak_password' && error.message) return error.message;
  if (error.code === 'insufficient_aal') return 'Your account uses two-factor authentication: sign in again with your code, then change the password.';
  return SETTINGS_MESSAGES.passwordFailed;
}

/**
 * 'Account Security' (spec §2): a real password change through PUT /auth/v1/user, which needs the
 * current password (`current_password`, GoTrue's field; the server refuses without it) and signs
 * out the person's other sessions, keeping this one.
 */
export function AccountSecurityCard() {
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [errors, setErrors] = useState<PasswordErrors>({});
  const [saving, setSaving] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const found = validatePasswords(currentPassword, newPassword, confirmPassword);
    setErrors(found);
    if (found.currentPassword || found.newPassword || found.confirmPassword) return;
    setSaving(true);
    try {
      const { error } = await (await loadSupabase()).auth.updateUser({ password: newPassword, current_password: currentPassword });
      if (error) {
        const message = passwordErrorMessage(error);
        if (error.code === 'same_password' || error.code === 'weak_password') setErrors({ newPassword: message });
        if (error.code === 'current_password_invalid' || error.code === 'current_password_required') setErrors({ currentPassword: message });
        toast.error(message);
        return;
      }
      setCurrentPassword('');
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
          <PasswordField
            id="current-password"
            label="Current password"
            autoComplete="current-password"
            value={currentPassword}
            error={errors.currentPassword}
            onChange={setCurrentPassword}
          />
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
  autoComplete = 'new-password',
  value,
  error,
  onChange,
}: {
  id: string;
  label: string;
  autoComplete?: 'current-password' | 'new-password';
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
        autoComplete={autoComplete}
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
