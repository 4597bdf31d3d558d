import crypto from 'node:crypto';
import ICAL from 'ical.js';

/**
 * Reads an iCalendar (RFC 5545) file into the occurrences of a time window with ical.js (Mozilla's
 * parser, Thunderbird's): recurring events expanded by their RRULE and RDATE, without their EXDATEs,
 * with RECURRENCE-ID overrides in place of the occurrences they replace; cancelled ones left out.
 *
 * Times: a recurrence is expanded in its own wall-clock time (a 10:00 weekly meeting stays at 10:00
 * across a daylight-saving change), then each occurrence is placed in UTC by its TZID: an IANA zone
 * through the platform's time-zone data, else the file's own VTIMEZONE (Outlook names Windows zones
 * and defines them), else as floating time in the person's zone.
 */

export type Attendee = { name: string; email: string | null };

export type Occurrence = {
  /** Stable across refreshes: the event's UID and which occurrence it is. */
  id: string;
  /** The UID of a recurring event (all its occurrences share it); null for a one-off. */
  seriesId: string | null;
  title: string;
  start: Date;
  end: Date;
  allDay: boolean;
  attendees: Attendee[];
  /** The event's own page (its URL property), when it has an http(s) one. */
  url: string | null;
};

export class IcsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IcsError';
  }
}

/** Each recurring event stops after this many steps (a daily series for 13 years), so a rule from 1900 on cannot spin. */
const MAX_STEPS_PER_SERIES = 5_000;
const MAX_ATTENDEES = 50;
const OVERRIDE_REACH_MS = 31 * 86_400_000;
const MAX_TITLE = 200;

export const occurrenceId = (uid: string, recurrence: Date | null): string =>
  crypto
    .createHash('sha256')
    .update(`${uid}\u0000${recurrence ? recurrence.toISOString() : ''}`)
    .digest('base64url')
    .slice(0, 24);

const MAX_EVENT_URL = 2_048;

/**
 * An event's address in its calendar as a link the meeting page may show: http(s) only (never
 * `javascript:` or `data:` from a calendar someone else writes), without credentials, bounded.
 */
export function eventLink(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > MAX_EVENT_URL) return null;
  try {
    const url = new URL(value.trim());
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) return null;
    return url.toString();
  } catch {
    return null;
  }
}

const knownZones = new Set(Intl.supportedValuesOf('timeZone'));
knownZones.add('UTC');

/** The UTC offset (ms) of an IANA zone at an instant. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function zoneOffsetMs(zone: string, at: number): number {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  const parts = formatter.formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - Math.floor(at / 1000) * 1000;
}

/** A wall-clock time in an IANA zone as an instant (a time skipped by a DST change moves forward, as calendars do). */
export function wallClockToUtc(fields: { year: number; month: number; day: number; hour: number; minute: number; second: number }, zone: string): Date {
  const guess = Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second);
  const first = guess - zoneOffsetMs(zone, guess);
  const second = guess - zoneOffsetMs(zone, first);
  return new Date(second);
}

type Zones = { fileZones: Map<string, ICAL.Timezone>; floatingZone: string };

/** `zoneHint`: the TZID of the property the time came from (ical.js's clones of an occurrence drop it). */
function toDate(time: ICAL.Time, zones: Zones, zoneHint?: string): Date {
  const fields = {
    year: time.year,
    month: time.month,
    day: time.day,
    hour: time.isDate ? 0 : time.hour,
    minute: time.isDate ? 0 : time.minute,
    second: time.isDate ? 0 : time.second,
  };
  if (!time.isDate && time.zone === ICAL.Timezone.utcTimezone)
    return new Date(Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second));
  const tzid = time.isDate ? undefined : ((time as unknown as { timezone?: string }).timezone ?? zoneHint);
  if (tzid) {
    const cleaned = tzid.replace(/^\/+/, '');
    if (knownZones.has(cleaned)) return wallClockToUtc(fields, cleaned);
    const fileZone = zones.fileZones.get(tzid);
    if (fileZone) {
      const local = time.clone();
      const offsetSeconds = fileZone.utcOffset(local);
      return new Date(Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second) - offsetSeconds * 1000);
    }
  }
  return wallClockToUtc(fields, zones.floatingZone);
}

function attendeesOf(event: ICAL.Component): Attendee[] {
  const seen = new Set<string>();
  const attendees: Attendee[] = [];
  const add = (property: ICAL.Property) => {
    const cutype = String(property.getParameter('cutype') ?? 'INDIVIDUAL').toUpperCase();
    if (cutype === 'ROOM' || cutype === 'RESOURCE') return;
    const value = String(property.getFirstValue() ?? '');
    const email = /^mailto:/i.test(value) ? value.slice(7).trim().toLowerCase() : null;
    const cn = property.getParameter('cn');
    const name = (typeof cn === 'string' ? cn : '').trim().slice(0, 100) || email?.slice(0, 100) || '';
    if (!name) return;
    const key = email ?? name.toLowerCase();
    if (seen.has(key) || attendees.length >= MAX_ATTENDEES) return;
    seen.add(key);
    attendees.push({ name, email: email && email.length <= 254 ? email : null });
  };
  const organizer = event.getFirstProperty('organizer');
  if (organizer) add(organizer);
  for (const property of event.getAllProperties('attendee')) add(property);
  return attendees;
}

const isCancelled = (component: ICAL.Component) => String(component.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED';

/**
 * The occurrences that overlap [from, to), earliest first, at most `max` (`truncated` says more were
 * left out). Throws IcsError when the text is not a calendar.
 */
export function expandIcs(
  text: string,
  options: { from: Date; to: Date; max: number; floatingZone: string },
): { occurrences: Occurrence[]; truncated: boolean } {
  if (!/^\s*BEGIN:VCALENDAR/i.test(text)) throw new IcsError('This address does not answer a calendar (an .ics file starting with BEGIN:VCALENDAR).');
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(text) as unknown[]);
  } catch (error) {
    throw new IcsError(`The calendar could not be read (${error instanceof Error ? error.message : 'malformed iCalendar'}).`);
  }
  if (root.name !== 'vcalendar') throw new IcsError('This address does not answer a calendar.');
  const zones: Zones = { fileZones: new Map(), floatingZone: options.floatingZone };
  for (const vtimezone of root.getAllSubcomponents('vtimezone')) {
    const zone = new ICAL.Timezone(vtimezone);
    if (zone.tzid) zones.fileZones.set(zone.tzid, zone);
  }
  const from = options.from.getTime();
  const to = options.to.getTime();
  const byUid = new Map<string, { master?: ICAL.Component; exceptions: ICAL.Component[] }>();
  for (const vevent of root.getAllSubcomponents('vevent')) {
    const uid = String(vevent.getFirstPropertyValue('uid') ?? '') || `no-uid-${byUid.size}`;
    const entry = byUid.get(uid) ?? { exceptions: [] };
    if (vevent.hasProperty('recurrence-id')) entry.exceptions.push(vevent);
    else entry.master = vevent;
    byUid.set(uid, entry);
  }

  const found: Occurrence[] = [];
  const tzidOf = (component: ICAL.Component, name: 'dtstart' | 'dtend'): string | undefined => {
    const tzid = component.getFirstProperty(name)?.getParameter('tzid');
    return typeof tzid === 'string' ? tzid : undefined;
  };
  const push = (
    uid: string,
    series: boolean,
    item: ICAL.Event,
    startTime: ICAL.Time,
    endTime: ICAL.Time | null,
    recurrence: ICAL.Time | null,
    recurrenceZone?: string,
  ) => {
    if (isCancelled(item.component)) return;
    const startZone = tzidOf(item.component, 'dtstart');
    const start = toDate(startTime, zones, startZone);
    let end = endTime ? toDate(endTime, zones, tzidOf(item.component, 'dtend') ?? startZone) : new Date(start.getTime() + (startTime.isDate ? 86_400_000 : 0));
    if (end.getTime() < start.getTime()) end = start;
    if (end.getTime() <= from && !(end.getTime() === start.getTime() && start.getTime() >= from)) return;
    if (start.getTime() >= to) return;
    found.push({
      id: occurrenceId(uid, recurrence ? toDate(recurrence, zones, recurrenceZone ?? startZone) : null),
      seriesId: series ? uid : null,
      title: (item.summary || '').trim().slice(0, MAX_TITLE) || 'Untitled event',
      start,
      end,
      allDay: startTime.isDate,
      attendees: attendeesOf(item.component),
      url: eventLink(item.component.getFirstPropertyValue('url')),
    });
  };

  for (const [uid, { master, exceptions }] of byUid) {
    if (!master) {
      // Overrides whose series is not in the file (a calendar shared from another): each stands alone.
      for (const exception of exceptions) {
        const event = new ICAL.Event(exception);
        if (event.startDate) push(uid, true, event, event.startDate, event.endDate, event.recurrenceId);
      }
      continue;
    }
    const event = new ICAL.Event(master);
    for (const exception of exceptions) event.relateException(exception);
    if (!event.startDate) continue;
    if (!event.isRecurring()) {
      push(uid, exceptions.length > 0, event, event.startDate, event.endDate, null);
      continue;
    }
    const iterator = event.iterator();
    const seriesZone = tzidOf(master, 'dtstart');
    for (let step = 0; step < MAX_STEPS_PER_SERIES; step++) {
      const next = iterator.next();
      if (!next) break;
      // ical.js's own reckoning of the instant (floating for a zone it does not know) is within a day
      // of the truth: enough to skip occurrences long before the window and stop after it, where an
      // override may still move an occurrence up to a month into it.
      const rough = next.toUnixTime() * 1000;
      if (rough > to + OVERRIDE_REACH_MS) break;
      if (rough < from - OVERRIDE_REACH_MS) continue;
      const details = event.getOccurrenceDetails(next);
      push(uid, true, details.item, details.startDate, details.endDate, details.recurrenceId, seriesZone);
    }
  }
  found.sort((a, b) => a.start.getTime() - b.start.getTime() || a.id.localeCompare(b.id));
  return { occurrences: found.slice(0, options.max), truncated: found.length > options.max };
}
