/**
 * The root of every cached query whose data comes from the person's meetings: the lists and a
 * meeting, but also insights, analytics, share links and a recording's final transcript. Each
 * feature builds its keys under it, so invalidating this one key (a meeting changed, the realtime
 * socket reconnected) refreshes all of them.
 */
export const MEETING_DATA_KEY = ['meetings'] as const;
