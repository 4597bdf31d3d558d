/** Timestamps as stored (ISO-8601 UTC) and as sent (RFC 3339, what GoTrue sends). */
export const nowIso = (): string => new Date().toISOString();
export const unixSeconds = (date: Date = new Date()): number => Math.floor(date.getTime() / 1000);
export const secondsSince = (iso: string | null): number => (iso === null ? Number.POSITIVE_INFINITY : (Date.now() - Date.parse(iso)) / 1000);
