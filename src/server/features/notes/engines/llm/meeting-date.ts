import { meetingClock } from '../../due-dates.ts';

/** The meeting's calendar date where its owner lives: what "today" means in the meeting. */
export type LocalDay = { year: number; month: number; day: number; iso: string; weekday: string };

/** Read off the same meeting clock the due dates are resolved on (an unknown zone reads as UTC). */
export function meetingLocalDay(startedAt: string, timeZone: string): LocalDay {
  const wall = meetingClock(startedAt, timeZone)?.wallTime ?? new Date(0);
  const [year, month, day] = [wall.getUTCFullYear(), wall.getUTCMonth() + 1, wall.getUTCDate()];
  const iso = wall.toISOString().slice(0, 10);
  return { year, month, day, iso, weekday: wall.toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' }) };
}
