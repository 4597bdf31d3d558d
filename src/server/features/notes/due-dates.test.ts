import { describe, expect, it } from 'vitest';
import { findDueDate, meetingClock } from './due-dates.ts';

// Tuesday 4 March 2025, 10:00 in Amsterdam (09:00 UTC).
const tuesday = meetingClock('2025-03-04T09:00:00.000Z', 'Europe/Amsterdam');

describe('local notes: due dates', () => {
  it.each([
    ["I'll send it by Friday.", '2025-03-07', 'by Friday'],
    ['Can you book it for tomorrow?', '2025-03-05', 'for tomorrow'],
    ['Sam will draft it next Tuesday.', '2025-03-11', 'next Tuesday'],
    ['Send it by the 10th.', '2025-03-10', 'by the 10th'],
    ['Send it by the 3rd.', '2025-04-03', 'by the 3rd'],
    ['Finish it by the end of the week.', '2025-03-07', 'by the end of the week'],
    ['Finish it by the end of the month.', '2025-03-31', 'by the end of the month'],
    ['Send it in two weeks.', '2025-03-18', 'in two weeks'],
    ['Send it before Monday.', '2025-03-10', 'before Monday'],
    ['Send it on March 12.', '2025-03-12', 'on March 12'],
    ['I will do it today.', '2025-03-04', 'today'],
  ])('%s → %s ("%s")', (text, due, dueText) => {
    expect(findDueDate(text, tuesday)).toEqual({ due, dueText });
  });

  it('is null for words that are no deadline', () => {
    for (const text of ['I will send it right now.', 'Give me a second.', 'We go one by one.', 'It costs twenty five euro.'])
      expect(findDueDate(text, tuesday)).toBeNull();
  });

  it('reads "tomorrow" on the owner\'s calendar when the meeting crosses midnight between UTC and their zone', () => {
    // 23:30 UTC on Tuesday is 00:30 on Wednesday in Amsterdam: tomorrow is Thursday there.
    expect(findDueDate('Send it tomorrow.', meetingClock('2025-03-04T23:30:00.000Z', 'Europe/Amsterdam'))?.due).toBe('2025-03-06');
    expect(findDueDate('Send it tomorrow.', meetingClock('2025-03-04T23:30:00.000Z', 'UTC'))?.due).toBe('2025-03-05');
    // 03:00 UTC on Wednesday is still Tuesday evening in Los Angeles.
    expect(findDueDate('Send it tomorrow.', meetingClock('2025-03-05T03:00:00.000Z', 'America/Los_Angeles'))?.due).toBe('2025-03-05');
  });

  it('falls back to UTC for an unknown zone, and reads nothing without a start date', () => {
    expect(findDueDate('Send it tomorrow.', meetingClock('2025-03-04T23:30:00.000Z', 'Mars/Olympus_Mons'))?.due).toBe('2025-03-05');
    expect(findDueDate('Send it tomorrow.', meetingClock('not a date', 'UTC'))).toBeNull();
  });
});
