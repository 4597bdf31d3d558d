/** Tables of the calendar feature (migrations 2026-12-07-0200 and 2026-12-08-0000). */
export type CalendarConnectionsTable = {
  user_id: string;
  kind: 'ics' | 'google';
  /** The ICS address or the Google tokens (JSON), sealed with the secret box (context: table, column, user). */
  secret: string;
  /** What the person sees of it: an ICS address's host and "…", or the Google account. */
  label: string;
  last_synced_at: string | null;
  last_error: string | null;
  /** When the last refresh was tried, good or not (the sweep takes the oldest first). */
  last_attempt_at: string | null;
  created_at: string;
};

/** The occurrences of the connected calendar's events from the last refresh (recurring events expanded). */
export type CalendarEventsTable = {
  user_id: string;
  id: string;
  series_id: string | null;
  title: string;
  starts_at: string;
  ends_at: string;
  all_day: number;
  /** JSON: [{ name, email }]. */
  attendees: string;
  /** The event in its calendar (Google's htmlLink, an ICS event's URL), http(s) only; null when the provider gives none. */
  url: string | null;
};

/** A meeting recorded from a calendar event: which event and series, so later occurrences link back to it. */
export type CalendarMeetingLinksTable = {
  meeting_id: string;
  user_id: string;
  event_id: string;
  series_id: string | null;
  event_start: string;
  created_at: string;
  /** The event as it was when linked, for when it has left the refreshed window; null on links made before these columns. */
  event_title: string | null;
  event_end: string | null;
  event_all_day: number | null;
  event_url: string | null;
  /** The attendees' addresses, lowercased, as a JSON array (migration 2026-12-09-0600); null on links made before. */
  attendee_emails: string | null;
};

/**
 * The reminders raised (migration 2026-12-08-0600): one row per occurrence and start time, written
 * with its `calendar.event_starting` event, so every sweep and worker raises each once. A moved
 * occurrence is a new start, reminded again; rows of started events are pruned after a day.
 */
export type CalendarRemindersTable = {
  user_id: string;
  event_id: string;
  event_start: string;
  raised_at: string;
};

export type CalendarTables = {
  calendar_connections: CalendarConnectionsTable;
  calendar_events: CalendarEventsTable;
  calendar_meeting_links: CalendarMeetingLinksTable;
  calendar_reminders: CalendarRemindersTable;
};
