/**
 * A link from outside data (a calendar event's address, written by whoever writes that calendar) as
 * an href the app may render: http(s) only, so never `javascript:` or `data:`; null otherwise. The
 * server checks the same when it reads the calendar; the page does not rely on that alone.
 */
export function httpLink(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** For `<a target="_blank">` to another site: the page opened gets no handle on this one, nor its address. */
export const NEW_TAB_REL = 'noopener noreferrer';
