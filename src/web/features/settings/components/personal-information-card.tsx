import { useMemo, useRef, useState, type FormEvent } from 'react';
import { toast } from '#web/lib/toast.ts';
import { Avatar, AvatarFallback, AvatarImage } from '#web/components/ui/avatar.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardAction, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { loadSupabase } from '#web/lib/supabase.ts';
import { useAuth } from '#web/lib/auth/use-auth.ts';
import { avatarUrlOf } from '#web/lib/auth/user-identity.ts';
import { useChangeAvatar } from '../api.ts';
import { metadataOf, profileOf, timezoneChoices, type EditableProfileField, type Profile } from '../profile.ts';
import { SelectField } from './select-field.tsx';
import { EMAIL_CHANGE_MESSAGES, SETTINGS_MESSAGES } from '../settings-messages.ts';
import { ChangeEmailDialog } from './change-email-dialog.tsx';

const TEXT_FIELDS: { field: EditableProfileField; label: string; autoComplete: string }[] = [
  { field: 'firstName', label: 'First name', autoComplete: 'given-name' },
  { field: 'lastName', label: 'Last name', autoComplete: 'family-name' },
  { field: 'title', label: 'Job Title', autoComplete: 'organization-title' },
  { field: 'location', label: 'Location', autoComplete: 'address-level2' },
];

const initials = (profile: Profile): string =>
  [profile.firstName, profile.lastName].map((name) => name.trim()[0]?.toUpperCase() ?? '').join('') || (profile.email[0]?.toUpperCase() ?? 'U');

/**
 * 'Personal Information' (spec §2, §4): read-only until Edit; Save Changes writes the account's
 * user_metadata on the server, so the values survive a reload and reach the shell's user menu
 * (the auth client reports USER_UPDATED, which replaces the session's user). Done and Cancel both
 * return to the view without saving: only Save Changes writes, so the view always shows what is stored.
 */
export function PersonalInformationCard() {
  const { user } = useAuth();
  const saved = useMemo(() => profileOf(user), [user]);
  const [draft, setDraft] = useState<Profile | null>(null);
  const [saving, setSaving] = useState(false);
  const editing = draft !== null;
  const shown = draft ?? saved;
  const timezones = useMemo(() => timezoneChoices(saved.timezone), [saved.timezone]);

  const changeAvatar = useChangeAvatar();
  const fileInput = useRef<HTMLInputElement>(null);
  const onPicture = (file: File | undefined) => {
    if (!file) return;
    changeAvatar.mutate(file, {
      onSuccess: () => toast.success(SETTINGS_MESSAGES.pictureUpdated),
      onError: (error) => toast.error(SETTINGS_MESSAGES.pictureFailed, { description: error.message }),
    });
  };

  const update = <K extends keyof Profile>(field: K, value: Profile[K]) => setDraft((current) => current && { ...current, [field]: value });

  const onSave = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft || saving) return;
    setSaving(true);
    try {
      const { error } = await (await loadSupabase()).auth.updateUser({ data: metadataOf(draft) });
      if (error) {
        toast.error(SETTINGS_MESSAGES.profileFailed, { description: error.message });
        return;
      }
      setDraft(null);
      toast.success(SETTINGS_MESSAGES.profileUpdated, { description: SETTINGS_MESSAGES.profileUpdatedDescription });
    } catch {
      toast.error(SETTINGS_MESSAGES.profileFailed, { description: SETTINGS_MESSAGES.networkFailed });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Personal Information</CardTitle>
        <CardDescription>Your name and details as your team sees them.</CardDescription>
        <CardAction>
          <Button variant="outline" size="sm" onClick={() => setDraft(editing ? null : saved)}>
            {editing ? 'Done' : 'Edit'}
          </Button>
        </CardAction>
      </CardHeader>
      <form className="grid gap-6" onSubmit={(event) => void onSave(event)}>
        <CardContent className="grid gap-6">
          <div className="flex items-center gap-4">
            <Avatar className="size-16">
              <AvatarImage src={avatarUrlOf(user)} alt="" />
              <AvatarFallback className="bg-primary text-lg text-primary-foreground">{initials(shown)}</AvatarFallback>
            </Avatar>
            {editing && (
              <Button type="button" variant="link" className="px-0" disabled={changeAvatar.isPending} onClick={() => fileInput.current?.click()}>
                {changeAvatar.isPending ? 'Uploading…' : 'Change'}
              </Button>
            )}
            <input
              ref={fileInput}
              type="file"
              accept="image/png,image/jpeg,image/webp,image/gif"
              className="sr-only"
              aria-label="Profile picture"
              tabIndex={-1}
              disabled={!editing || changeAvatar.isPending}
              onChange={(event) => {
                onPicture(event.target.files?.[0]);
                event.target.value = '';
              }}
            />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            {TEXT_FIELDS.slice(0, 2).map((spec) => (
              <TextField key={spec.field} {...spec} value={shown[spec.field]} editing={editing} onChange={(value) => update(spec.field, value)} />
            ))}
            <div className="grid gap-2 sm:col-span-2">
              <Label htmlFor="profile-email">Email</Label>
              <div className="flex items-center gap-2">
                <Input id="profile-email" className="read-only:bg-muted/50" type="email" value={shown.email} readOnly aria-describedby="profile-email-note" />
                <ChangeEmailDialog />
              </div>
              <p id="profile-email-note" className="text-sm text-muted-foreground">
                {user?.new_email
                  ? EMAIL_CHANGE_MESSAGES.pending(user.new_email)
                  : 'Your sign-in address. Changing it takes a confirmation from both addresses.'}
              </p>
            </div>
            {TEXT_FIELDS.slice(2).map((spec) => (
              <TextField key={spec.field} {...spec} value={shown[spec.field]} editing={editing} onChange={(value) => update(spec.field, value)} />
            ))}
            <SelectField
              id="profile-timezone"
              label="Timezone"
              value={shown.timezone}
              options={timezones}
              disabled={!editing}
              onChange={(timezone) => update('timezone', timezone)}
            />
          </div>
        </CardContent>
        {editing && (
          <CardFooter className="justify-end gap-2">
            <Button type="button" variant="outline" onClick={() => setDraft(null)} disabled={saving}>
              Cancel
            </Button>
            <Button type="submit" disabled={saving}>
              Save Changes
            </Button>
          </CardFooter>
        )}
      </form>
    </Card>
  );
}

function TextField({
  field,
  label,
  autoComplete,
  value,
  editing,
  onChange,
}: {
  field: EditableProfileField;
  label: string;
  autoComplete: string;
  value: string;
  editing: boolean;
  onChange: (value: string) => void;
}) {
  const id = `profile-${field}`;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        className="read-only:bg-muted/50"
        value={value}
        readOnly={!editing}
        autoComplete={autoComplete}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
