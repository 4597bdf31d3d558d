/**
 * The root of every cached query whose data comes from the person's meetings: the lists and a
 * meeting, but also insights, analytics, share links and a recording's final transcript. Each
 * feature builds its keys under it, so invalidating this one key (a meeting changed, the realtime
 * socket reconnected) refreshes all of them.
 */
export const MEETING_DATA_KEY = ['meetings'] as const;

/** The person's data export (Settings › Privacy); the realtime socket refreshes it as the job moves on. */
export const DATA_EXPORT_KEY = ['data-export'] as const;

/** The root of every cached query about the person's teams (/team): the realtime `team.changed` event refreshes one team's. */
export const TEAM_DATA_KEY = ['teams'] as const;

/** The bell's notifications (per person); the realtime socket refreshes them when one arrives. */
export const NOTIFICATIONS_KEY = ['notifications'] as const;

/** The root of every cached query about the person's connected calendar: its connection and its events (settings and dashboard). */
export const CALENDAR_DATA_KEY = ['calendar'] as const;

/** The person's plan, its limits and this month's usage (Settings › Billing, the dashboard, the sidebar). */
export const BILLING_KEY = ['billing'] as const;
