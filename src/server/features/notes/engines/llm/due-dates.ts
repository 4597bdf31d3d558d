import { findDueDate, meetingClock } from '../../due-dates.ts';
import { meetingLocalDay } from './meeting-date.ts';

/** How far ahead a due date may lie before it reads as a model's invention rather than a plan. */
const MAX_YEARS_AHEAD = 3;

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The YYYY-MM-DD of a real calendar day, or undefined ("2026-02-30" is not one). */
function validDay(text: string): string | undefined {
  const match = ISO_DAY.exec(text.trim());
  if (!match) return undefined;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === match[0] ? match[0] : undefined;
}

/**
 * The due date of an action item. The model gives the words ("by Friday") and its own reading of
 * them; chrono's reading of the words wins when it has one, the model's is kept only when it is
 * a real day from the meeting's day to a few years on, and otherwise there is no date. The words
 * are kept either way.
 */
export function resolveDue(
  modelDue: string | null,
  dueText: string | null,
  meeting: { startedAt: string; timeZone: string },
): { due: string | null; dueText: string | null } {
  const words = dueText?.trim() || null;
  const today = meetingLocalDay(meeting.startedAt, meeting.timeZone);
  // The same reading as the local engine's (chrono plus "the 10th", "end of the week"): one calendar.
  const fromWords = words ? findDueDate(words, meetingClock(meeting.startedAt, meeting.timeZone))?.due : undefined;
  if (fromWords) return { due: fromWords, dueText: words };
  const fromModel = modelDue ? validDay(modelDue) : undefined;
  const latest = `${today.year + MAX_YEARS_AHEAD}${today.iso.slice(4)}`;
  const plausible = fromModel !== undefined && fromModel >= today.iso && fromModel <= latest;
  return { due: plausible ? fromModel : null, dueText: words };
}
