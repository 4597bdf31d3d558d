/**
 * The time zones a person picks on Settings › Profile: the spec's four first (§2: Pacific, Mountain,
 * Central, Eastern; Pacific by default), stored in their user metadata as `timezone` with the spec's
 * values (§3), then every other IANA zone, stored as its IANA name. The server reads dates in the
 * zone ("by Friday" in a meeting's notes, times in exports and emails).
 */
export const PROFILE_TIME_ZONES = [
  { value: 'america-los_angeles', label: 'Pacific Time', iana: 'America/Los_Angeles' },
  { value: 'america-denver', label: 'Mountain Time', iana: 'America/Denver' },
  { value: 'america-chicago', label: 'Central Time', iana: 'America/Chicago' },
  { value: 'america-new_york', label: 'Eastern Time', iana: 'America/New_York' },
] as const;

export const DEFAULT_PROFILE_TIME_ZONE = 'america-los_angeles';

/** The longest IANA name is 32 characters (America/Argentina/ComodRivadavia); anything longer is not a zone. */
const MAX_ZONE_LENGTH = 64;

/** Whether this runtime's Intl knows the IANA zone (the browser's and the server's lists may differ by an ICU version). */
export function isKnownTimeZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || zone.length === 0 || zone.length > MAX_ZONE_LENGTH) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The IANA zone of a stored profile value: one of the spec's four, an IANA name, else the default's. */
export function ianaTimeZone(value: unknown): string {
  const spec = PROFILE_TIME_ZONES.find((z) => z.value === value);
  if (spec) return spec.iana;
  if (isKnownTimeZone(value)) return value;
  return PROFILE_TIME_ZONES[0].iana;
}

/** The profile value for an IANA zone: the spec's value for its four, the IANA name for any other, the default when unknown. */
export function profileTimeZoneOf(zone: string | null | undefined): string {
  const spec = PROFILE_TIME_ZONES.find((z) => z.iana === zone);
  if (spec) return spec.value;
  return isKnownTimeZone(zone) ? zone : DEFAULT_PROFILE_TIME_ZONE;
}

/** How a stored value reads: "Pacific Time", or the IANA name with spaces ("America/Argentina/Buenos Aires"). */
export function timeZoneLabel(value: string): string {
  return PROFILE_TIME_ZONES.find((z) => z.value === value)?.label ?? value.replaceAll('_', ' ');
}

/**
 * The choices, in order: the spec's four, then every zone of `zones` (the runtime's
 * `Intl.supportedValuesOf('timeZone')`) but those four, and the stored value if the list lacks it.
 */
export function timeZoneOptions(zones: readonly string[], stored?: string): { value: string; label: string }[] {
  const spec = new Set<string>(PROFILE_TIME_ZONES.map((z) => z.iana));
  const others = zones.filter((zone) => !spec.has(zone));
  if (stored && !PROFILE_TIME_ZONES.some((z) => z.value === stored) && !others.includes(stored) && isKnownTimeZone(stored)) others.push(stored);
  return [...PROFILE_TIME_ZONES.map(({ value, label }) => ({ value, label })), ...others.map((zone) => ({ value: zone, label: timeZoneLabel(zone) }))];
}
