import { describe, expect, it } from 'vitest';
import { expandIcs, IcsError } from './ics.ts';

const ics = (...lines: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Parley tests//EN', ...lines, 'END:VCALENDAR'].join('\r\n');
const window = (from: string, to: string) => ({ from: new Date(from), to: new Date(to), max: 500, floatingZone: 'Europe/London' });

describe('reading an iCalendar file', () => {
  it('expands a weekly series across a DST change, without its EXDATE, with its RECURRENCE-ID override', () => {
    // New York leaves daylight time on 1 November 2026: 10:00 is 14:00 UTC before and 15:00 after.
    const text = ics(
      'BEGIN:VEVENT',
      'UID:standup-1@example.com',
      'DTSTAMP:20261001T000000Z',
      'DTSTART;TZID=America/New_York:20261021T100000',
      'DTEND;TZID=America/New_York:20261021T103000',
      'RRULE:FREQ=WEEKLY;BYDAY=WE;COUNT=6',
      'EXDATE;TZID=America/New_York:20261028T100000',
      'SUMMARY:Weekly standup',
      'ORGANIZER;CN=Ada Lovelace:mailto:Ada@Example.com',
      'ATTENDEE;CN=Grace Hopper;PARTSTAT=ACCEPTED:mailto:grace@example.com',
      'ATTENDEE;CUTYPE=ROOM;CN=Room 4:mailto:room4@example.com',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:standup-1@example.com',
      'DTSTAMP:20261001T000000Z',
      'RECURRENCE-ID;TZID=America/New_York:20261111T100000',
      'DTSTART;TZID=America/New_York:20261111T130000',
      'DTEND;TZID=America/New_York:20261111T133000',
      'SUMMARY:Weekly standup (moved)',
      'END:VEVENT',
    );
    const { occurrences, truncated } = expandIcs(text, window('2026-10-01T00:00:00Z', '2026-12-31T00:00:00Z'));
    expect(truncated).toBe(false);
    expect(occurrences.map((o) => [o.start.toISOString(), o.title])).toEqual([
      ['2026-10-21T14:00:00.000Z', 'Weekly standup'],
      // 28 October excluded
      ['2026-11-04T15:00:00.000Z', 'Weekly standup'],
      ['2026-11-11T18:00:00.000Z', 'Weekly standup (moved)'],
      ['2026-11-18T15:00:00.000Z', 'Weekly standup'],
      ['2026-11-25T15:00:00.000Z', 'Weekly standup'],
    ]);
    expect(occurrences[1]?.end.toISOString()).toBe('2026-11-04T15:30:00.000Z');
    expect(new Set(occurrences.map((o) => o.seriesId))).toEqual(new Set(['standup-1@example.com']));
    expect(new Set(occurrences.map((o) => o.id)).size).toBe(5);
    expect(occurrences[0]?.attendees).toEqual([
      { name: 'Ada Lovelace', email: 'ada@example.com' },
      { name: 'Grace Hopper', email: 'grace@example.com' },
    ]);
    // The same file read again gives the same ids (links to meetings survive a refresh).
    expect(expandIcs(text, window('2026-10-01T00:00:00Z', '2026-12-31T00:00:00Z')).occurrences.map((o) => o.id)).toEqual(occurrences.map((o) => o.id));
  });

  it('places TZID times by IANA zone, by the file’s own VTIMEZONE, in UTC, and floating in the person’s zone', () => {
    const text = ics(
      'BEGIN:VTIMEZONE',
      'TZID:W. Europe Standard Time',
      'BEGIN:STANDARD',
      'DTSTART:16011028T030000',
      'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10',
      'TZOFFSETFROM:+0200',
      'TZOFFSETTO:+0100',
      'END:STANDARD',
      'BEGIN:DAYLIGHT',
      'DTSTART:16010325T020000',
      'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3',
      'TZOFFSETFROM:+0100',
      'TZOFFSETTO:+0200',
      'END:DAYLIGHT',
      'END:VTIMEZONE',
      'BEGIN:VEVENT',
      'UID:a',
      'DTSTART;TZID=Europe/Berlin:20261208T090000',
      'DTEND;TZID=Europe/Berlin:20261208T100000',
      'SUMMARY:Berlin',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:b',
      'DTSTART;TZID=W. Europe Standard Time:20261209T090000',
      'DURATION:PT45M',
      'SUMMARY:Outlook zone',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:c',
      'DTSTART:20261210T090000Z',
      'DTEND:20261210T093000Z',
      'SUMMARY:UTC',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:d',
      'DTSTART:20261211T090000',
      'DTEND:20261211T093000',
      'SUMMARY:Floating',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:e',
      'DTSTART;VALUE=DATE:20261212',
      'SUMMARY:Holiday',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:f',
      'STATUS:CANCELLED',
      'DTSTART:20261213T090000Z',
      'SUMMARY:Cancelled',
      'END:VEVENT',
    );
    const { occurrences } = expandIcs(text, { ...window('2026-12-01T00:00:00Z', '2027-01-01T00:00:00Z'), floatingZone: 'America/Los_Angeles' });
    expect(occurrences.map((o) => [o.title, o.start.toISOString(), o.end.toISOString(), o.allDay, o.seriesId])).toEqual([
      ['Berlin', '2026-12-08T08:00:00.000Z', '2026-12-08T09:00:00.000Z', false, null],
      ['Outlook zone', '2026-12-09T08:00:00.000Z', '2026-12-09T08:45:00.000Z', false, null],
      ['UTC', '2026-12-10T09:00:00.000Z', '2026-12-10T09:30:00.000Z', false, null],
      ['Floating', '2026-12-11T17:00:00.000Z', '2026-12-11T17:30:00.000Z', false, null],
      ['Holiday', '2026-12-12T08:00:00.000Z', '2026-12-13T08:00:00.000Z', true, null],
    ]);
  });

  it('bounds the window and the count, and stops an endless daily rule', () => {
    const text = ics('BEGIN:VEVENT', 'UID:daily', 'DTSTART:19900101T090000Z', 'DTEND:19900101T091500Z', 'RRULE:FREQ=DAILY', 'SUMMARY:Daily', 'END:VEVENT');
    const { occurrences, truncated } = expandIcs(text, { ...window('1990-03-01T00:00:00Z', '1990-04-01T00:00:00Z'), max: 10 });
    expect(occurrences).toHaveLength(10);
    expect(truncated).toBe(true);
    expect(occurrences[0]?.start.toISOString()).toBe('1990-03-01T09:00:00.000Z');
    // Far beyond the step limit the series has stopped rather than run for minutes.
    expect(expandIcs(text, window('2026-12-01T00:00:00Z', '2026-12-08T00:00:00Z')).occurrences).toEqual([]);
  });

  it('says when the text is not a calendar', () => {
    expect(() => expandIcs('<html>Sign in</html>', window('2026-12-01T00:00:00Z', '2026-12-08T00:00:00Z'))).toThrow(IcsError);
    expect(() => expandIcs('BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\n', window('2026-12-01T00:00:00Z', '2026-12-08T00:00:00Z'))).toThrow(/could not be read/);
  });
});
