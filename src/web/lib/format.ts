/** Display formats used across the app. */

export function formatDuration(totalSeconds: number): string {
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  if (hours > 0) return `${hours}h ${minutes}m`;
  if (minutes > 0) return `${minutes} min`;
  return `${totalSeconds} s`;
}

/** mm:ss (or h:mm:ss) for timers and transcript timestamps. */
/** A bitrate as people read it: "48 kbit/s". */
export const formatBitrate = (bitsPerSecond: number): string => `${Math.round(bitsPerSecond / 1000)} kbit/s`;

export function formatClock(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', year: 'numeric' });
export const formatDate = (iso: string): string => dateFormat.format(new Date(iso));

// A calendar day (a due date) is no instant: read at noon UTC and shown in UTC, no time zone moves it.
const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
/** "Fri, Nov 27, 2026" for a date-only value such as "2026-11-27". */
export const formatDay = (isoDate: string): string => dayFormat.format(new Date(`${isoDate}T12:00:00Z`));

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });
// Intl.Segmenter (ICU without its suppression lists) ends a sentence after "Dr." or "e.g.": these go on.
const ABBREVIATION = /\b(?:Mr|Mrs|Ms|Dr|Prof|Sr|Jr|St|vs|e\.g|i\.e|approx)\.\s*$/i;

/** The first sentence of a text, for a one-line preview. */
export function firstSentence(text: string): string {
  let first = '';
  for (const { segment } of sentences.segment(text.trim())) {
    first += segment;
    if (!ABBREVIATION.test(first)) break;
  }
  return first.trim();
}
