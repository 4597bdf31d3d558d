import type { User } from '@supabase/auth-js';
import { isKnownTimeZone, PROFILE_TIME_ZONES, profileTimeZoneOf, timeZoneOptions } from '#shared/contracts/time-zones.ts';

/** The Profile tab's fields (spec §3 settings groups), kept in the account's user_metadata. */

/** The zone this browser says it is in, if it says (null where Intl cannot tell). */
function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/** The Timezone select's choices: the spec's four, then every zone this browser knows (and the stored one). */
export function timezoneChoices(stored: string): { value: string; label: string }[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return timeZoneOptions(zones, stored);
}

/** A stored `timezone` that means a zone: one of the spec's four values, or an IANA name. */
const storedZone = (value: unknown): string | undefined =>
  PROFILE_TIME_ZONES.some((zone) => zone.value === value) || isKnownTimeZone(value) ? (value as string) : undefined;

export type Profile = {
  firstName: string;
  lastName: string;
  email: string;
  title: string;
  location: string;
  /** One of the spec's four values (america-los_angeles…), or an IANA zone name. */
  timezone: string;
};

export type EditableProfileField = Exclude<keyof Profile, 'email' | 'timezone'>;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * The profile as stored. Accounts from sign-up only have full_name (spec §3): until the first save,
 * its first word is the first name and the rest the last name. Until a time zone is stored, the
 * browser's (Pacific where it cannot tell, spec §2).
 */
export function profileOf(user: User | null, browserZone: string | null = browserTimeZone()): Profile {
  const metadata: Record<string, unknown> = user?.user_metadata ?? {};
  const [first = '', ...rest] = text(metadata.full_name).trim().split(/\s+/);
  const hasSplitName = typeof metadata.first_name === 'string' || typeof metadata.last_name === 'string';
  const timezone = storedZone(metadata.timezone) ?? profileTimeZoneOf(browserZone);
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

/**
 * What a first visit stores as the person's time zone (the browser's, or Pacific where it cannot
 * tell), so that the server's exports and emails use it too; undefined once one is stored.
 */
export function firstVisitTimeZone(user: User, browserZone: string | null = browserTimeZone()): string | undefined {
  const metadata: Record<string, unknown> = user.user_metadata ?? {};
  return metadata.timezone === undefined ? profileTimeZoneOf(browserZone) : undefined;
}
