import type { User } from '@supabase/auth-js';
import { describe, expect, it } from 'vitest';
import { firstVisitTimeZone, metadataOf, profileOf } from './profile.ts';

const userWith = (metadata: Record<string, unknown>): User => ({ id: 'u1', email: 'ada@example.com', user_metadata: metadata }) as unknown as User;

describe('the profile from user_metadata', () => {
  it('splits the sign-up full name until first and last name are saved; Pacific is the default timezone', () => {
    expect(profileOf(userWith({ full_name: 'Ada King Lovelace' }), null)).toEqual({
      firstName: 'Ada',
      lastName: 'King Lovelace',
      email: 'ada@example.com',
      title: '',
      location: '',
      timezone: 'america-los_angeles',
    });
  });

  it('prefers the saved fields and ignores an unknown timezone', () => {
    const profile = profileOf(
      userWith({ full_name: 'Old Name', first_name: 'Ada', last_name: '', job_title: 'Analyst', location: 'London', timezone: 'mars-olympus' }),
      null,
    );
    expect(profile).toMatchObject({ firstName: 'Ada', lastName: '', title: 'Analyst', location: 'London', timezone: 'america-los_angeles' });
    expect(profileOf(userWith({ timezone: 'america-chicago' })).timezone).toBe('america-chicago');
  });

  it('until one is stored, shows the browser’s zone: the spec’s value for its four, the IANA name for any other, Pacific when unknown', () => {
    expect(profileOf(userWith({}), 'America/Denver').timezone).toBe('america-denver');
    expect(profileOf(userWith({}), 'Europe/Berlin').timezone).toBe('Europe/Berlin');
    expect(profileOf(userWith({}), 'Mars/Olympus_Mons').timezone).toBe('america-los_angeles');
    expect(profileOf(userWith({ timezone: 'Asia/Tokyo' }), 'Europe/Berlin').timezone).toBe('Asia/Tokyo');
    expect(profileOf(userWith({ timezone: 'america-chicago' }), 'Europe/Berlin').timezone).toBe('america-chicago');
  });

  it('a first visit stores the browser’s zone, once', () => {
    expect(firstVisitTimeZone(userWith({ full_name: 'Ada' }), 'Europe/Berlin')).toBe('Europe/Berlin');
    expect(firstVisitTimeZone(userWith({}), 'America/New_York')).toBe('america-new_york');
    expect(firstVisitTimeZone(userWith({}), null)).toBe('america-los_angeles');
    expect(firstVisitTimeZone(userWith({ timezone: 'america-denver' }), 'Europe/Berlin')).toBeUndefined();
  });

  it('sends full_name as first + " " + last, trimmed', () => {
    const metadata = metadataOf({ firstName: ' Ada ', lastName: 'Lovelace ', email: 'x', title: ' Analyst', location: '', timezone: 'america-new_york' });
    expect(metadata).toEqual({
      full_name: 'Ada Lovelace',
      first_name: 'Ada',
      last_name: 'Lovelace',
      job_title: 'Analyst',
      location: '',
      timezone: 'america-new_york',
    });
    expect(metadataOf({ firstName: 'Ada', lastName: '', email: '', title: '', location: '', timezone: 'america-denver' }).full_name).toBe('Ada');
  });
});
