import crypto from 'node:crypto';
import ICAL from 'ical.js';

/**
 * A follow-up as an iCalendar invitation any calendar opens (Google, Outlook, Apple, Thunderbird):
 * one event in UTC, built with ical.js so text is escaped and long lines folded as RFC 5545 says.
 */
export function followUpIcs(input: { summary: string; description: string; start: Date; end: Date; url: string; attendees: string[]; now: Date }): string {
  const calendar = new ICAL.Component(['vcalendar', [], []]);
  calendar.addPropertyWithValue('prodid', '-//Parley//Follow-up//EN');
  calendar.addPropertyWithValue('version', '2.0');
  calendar.addPropertyWithValue('calscale', 'GREGORIAN');
  calendar.addPropertyWithValue('method', 'PUBLISH');
  const event = new ICAL.Component('vevent');
  const utc = (date: Date) => ICAL.Time.fromJSDate(date, true);
  event.addPropertyWithValue('uid', `${crypto.randomUUID()}@parley`);
  event.addPropertyWithValue('dtstamp', utc(input.now));
  event.addPropertyWithValue('dtstart', utc(input.start));
  event.addPropertyWithValue('dtend', utc(input.end));
  event.addPropertyWithValue('summary', input.summary);
  event.addPropertyWithValue('description', input.description);
  event.addPropertyWithValue('url', input.url);
  for (const email of input.attendees) {
    const attendee = event.addPropertyWithValue('attendee', `mailto:${email}`);
    attendee.setParameter('rsvp', 'TRUE');
  }
  calendar.addSubcomponent(event);
  return calendar.toString().replace(/\r?\n/g, '\r\n') + '\r\n';
}
