import * as chrono from 'chrono-node';

/**
 * Due dates said in a commitment ("by Friday", "tomorrow", "next Tuesday", "by the 10th"), read
 * by chrono-node against the meeting's start as its owner's clock showed it. chrono reads the
 * words; this file adds what it leaves out (a bare "the 10th", "the end of the week") and decides
 * which dates are deadlines: "in a second" or "right now" are not.
 */
export type DueDate = { due: string; dueText: string };

/** The meeting's start as wall-clock time in its zone, held in a Date read in UTC. */
export type MeetingClock = { wallTime: Date };

const PREPOSITIONS = /\b(by|before|until|till|on|for|no later than)\s+$/i;
const NOT_A_DEADLINE = /\b(now|seconds?|minutes?|hours?|moment|sec)\b/i;

/** The clock a meeting's dates are read on; undefined when its start is not a date. */
export function meetingClock(startedAt: string, timeZone: string): MeetingClock | undefined {
  const instant = new Date(startedAt);
  if (Number.isNaN(instant.getTime())) return undefined;
  const parts = wallClockParts(instant, timeZone) ?? wallClockParts(instant, 'UTC')!;
  return { wallTime: new Date(Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute)) };
}

function wallClockParts(instant: Date, timeZone: string): Record<'year' | 'month' | 'day' | 'hour' | 'minute', number> | undefined {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
    });
  } catch {
    // An unknown zone name throws RangeError; the caller falls back to UTC, as the contract says.
    return undefined;
  }
  const value = (type: Intl.DateTimeFormatPartTypes) => Number(format.formatToParts(instant).find((p) => p.type === type)?.value ?? 0);
  return { year: value('year'), month: value('month'), day: value('day'), hour: value('hour'), minute: value('minute') };
}

const lastDayOfMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** chrono's casual English plus a bare day of the month and "the end of the week/month/day". */
function createDueDateParser(): chrono.Chrono {
  const parser = chrono.casual.clone();
  parser.parsers.push({
    pattern: () => /\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b(?!\s+of\b)/i,
    extract: (context, match) => {
      const ref = context.reference.instant;
      const day = Number(match[1]);
      // A day already past this month is next month's: deadlines lie ahead.
      const ahead = day < ref.getUTCDate();
      const month = ((ref.getUTCMonth() + (ahead ? 1 : 0)) % 12) + 1;
      const year = ref.getUTCFullYear() + (ahead && month === 1 ? 1 : 0);
      if (day < 1 || day > lastDayOfMonth(year, month)) return null;
      return { day, month, year };
    },
  });
  parser.parsers.push({
    pattern: () => /\b(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(day|week|month)\b/i,
    extract: (context, match) => {
      const ref = context.reference.instant;
      const unit = match[1]?.toLowerCase();
      const date = new Date(ref.getTime());
      if (unit === 'week') date.setUTCDate(date.getUTCDate() + ((5 - date.getUTCDay() + 7) % 7));
      if (unit === 'month') date.setUTCDate(lastDayOfMonth(date.getUTCFullYear(), date.getUTCMonth() + 1));
      return { day: date.getUTCDate(), month: date.getUTCMonth() + 1, year: date.getUTCFullYear() };
    },
  });
  return parser;
}

const parser = createDueDateParser();
// chrono's patterns are large regular expressions, which V8 first interprets and compiles to machine
// code on their next use (~0.3 s in all): two runs while the module loads keep that out of the first
// meeting's notes.
for (let run = 0; run < 2; run++)
  parser.parse('send it after the meeting, by Friday the 1st at 5pm or in two weeks', { instant: new Date(0), timezone: 0 }, { forwardDate: true });
const pad = (n: number) => String(n).padStart(2, '0');

/** The first deadline said in `text`, resolved on the meeting's clock; null when none is said. */
export function findDueDate(text: string, clock: MeetingClock | undefined): DueDate | null {
  if (!clock) return null;
  const results = parser.parse(text, { instant: clock.wallTime, timezone: 0 }, { forwardDate: true });
  const result = results.find((r) => !NOT_A_DEADLINE.test(r.text));
  if (!result) return null;
  const { start } = result;
  const due = `${start.get('year')}-${pad(start.get('month') ?? 1)}-${pad(start.get('day') ?? 1)}`;
  const preposition = PREPOSITIONS.exec(text.slice(0, result.index))?.[0] ?? '';
  return { due, dueText: `${preposition}${result.text}`.trim() };
}
