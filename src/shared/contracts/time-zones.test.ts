import { describe, expect, it } from 'vitest';
import { ianaTimeZone, profileTimeZoneOf, timeZoneLabel, timeZoneOptions } from './time-zones.ts';

describe('profile time zones', () => {
  it('lists the spec’s four first, then every other zone once', () => {
    const options = timeZoneOptions(['Africa/Abidjan', 'America/Denver', 'America/Los_Angeles', 'Europe/Berlin', 'UTC']);
    expect(options).toEqual([
      { value: 'america-los_angeles', label: 'Pacific Time' },
      { value: 'america-denver', label: 'Mountain Time' },
      { value: 'america-chicago', label: 'Central Time' },
      { value: 'america-new_york', label: 'Eastern Time' },
      { value: 'Africa/Abidjan', label: 'Africa/Abidjan' },
      { value: 'Europe/Berlin', label: 'Europe/Berlin' },
      { value: 'UTC', label: 'UTC' },
    ]);
    // A stored zone this browser's list lacks stays choosable.
    expect(timeZoneOptions([], 'Asia/Tokyo').map((o) => o.value)).toEqual([
      'america-los_angeles',
      'america-denver',
      'america-chicago',
      'america-new_york',
      'Asia/Tokyo',
    ]);
    expect(timeZoneLabel('America/Argentina/Buenos_Aires')).toBe('America/Argentina/Buenos Aires');
  });

  it('reads a stored value as an IANA zone: the spec’s values, IANA names, else Pacific', () => {
    expect(ianaTimeZone('america-chicago')).toBe('America/Chicago');
    expect(ianaTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(ianaTimeZone(undefined)).toBe('America/Los_Angeles');
    expect(ianaTimeZone('mars-olympus')).toBe('America/Los_Angeles');
    expect(ianaTimeZone('x'.repeat(100))).toBe('America/Los_Angeles');
    expect(ianaTimeZone(42)).toBe('America/Los_Angeles');
  });

  it('stores a browser’s zone as the spec’s value for its four, as its IANA name otherwise, Pacific when unknown', () => {
    expect(profileTimeZoneOf('America/New_York')).toBe('america-new_york');
    expect(profileTimeZoneOf('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(profileTimeZoneOf(undefined)).toBe('america-los_angeles');
    expect(profileTimeZoneOf('Nowhere/Special')).toBe('america-los_angeles');
  });
});
