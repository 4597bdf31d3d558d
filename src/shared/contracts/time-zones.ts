/**
 * The time zones a person picks on Settings › Profile (spec §2: Pacific, Mountain, Central, Eastern;
 * Pacific by default), stored in their user metadata as `timezone`, with the IANA zone the server
 * reads dates in ("by Friday" in a meeting's notes, times in exports).
 */
export const PROFILE_TIME_ZONES = [
  { value: 'america-los_angeles', label: 'Pacific Time', iana: 'America/Los_Angeles' },
  { value: 'america-denver', label: 'Mountain Time', iana: 'America/Denver' },
  { value: 'america-chicago', label: 'Central Time', iana: 'America/Chicago' },
  { value: 'america-new_york', label: 'Eastern Time', iana: 'America/New_York' },
] as const;

export type ProfileTimeZone = (typeof PROFILE_TIME_ZONES)[number]['value'];
export const DEFAULT_PROFILE_TIME_ZONE: ProfileTimeZone = 'america-los_angeles';

/** The IANA zone of a stored profile value (the default's when unset or unknown). */
export function ianaTimeZone(value: unknown): string {
  const zone = PROFILE_TIME_ZONES.find((z) => z.value === value) ?? PROFILE_TIME_ZONES.find((z) => z.value === DEFAULT_PROFILE_TIME_ZONE)!;
  return zone.iana;
}
