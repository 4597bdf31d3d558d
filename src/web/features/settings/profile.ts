import type { User } from '@supabase/auth-js';

/** The Profile tab's fields (spec §3 settings groups), kept in the account's user_metadata. */

export const TIMEZONES = [
  { value: 'america-los_angeles', label: 'Pacific Time' },
  { value: 'america-denver', label: 'Mountain Time' },
  { value: 'america-chicago', label: 'Central Time' },
  { value: 'america-new_york', label: 'Eastern Time' },
] as const;
export type Timezone = (typeof TIMEZONES)[number]['value'];
export const DEFAULT_TIMEZONE: Timezone = 'america-los_angeles';

export type Profile = {
  firstName: string;
  lastName: string;
  email: string;
  title: string;
  location: string;
  timezone: Timezone;
};

export type EditableProfileField = Exclude<keyof Profile, 'email' | 'timezone'>;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * The profile as stored. Accounts from sign-up only have full_name (spec §3): until the first save,
 * its first word is the first name and the rest the last name.
 */
export function profileOf(user: User | null): Profile {
  const metadata: Record<string, unknown> = user?.user_metadata ?? {};
  const [first = '', ...rest] = text(metadata.full_name).trim().split(/\s+/);
  const hasSplitName = typeof metadata.first_name === 'string' || typeof metadata.last_name === 'string';
  const timezone = TIMEZONES.find((zone) => zone.value === metadata.timezone)?.value ?? DEFAULT_TIMEZONE;
  return {
    firstName: hasSplitName ? text(metadata.first_name) : first,
    lastName: hasSplitName ? text(metadata.last_name) : rest.join(' '),
    email: user?.email ?? '',
    title: text(metadata.job_title),
    location: text(metadata.location),
    timezone,
  };
}

/** What Save Changes sends as user_metadata; full_name keeps the shell's user menu in step. */
export function metadataOf(profile: Profile) {
  const firstName = profile.firstName.trim();
  const lastName = profile.lastName.trim();
  return {
    full_name: [firstName, lastName].filter(Boolean).join(' '),
    first_name: firstName,
    last_name: lastName,
    job_title: profile.title.trim(),
    location: profile.location.trim(),
    timezone: profile.timezone,
  };
}
