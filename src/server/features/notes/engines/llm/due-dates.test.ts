import { describe, expect, it } from 'vitest';
import { resolveDue } from './due-dates.ts';

// Wednesday 4 March 2026, 23:30 in UTC, already Thursday the 5th in Berlin.
const meeting = { startedAt: '2026-03-04T23:30:00Z', timeZone: 'Europe/Berlin' };

describe('resolveDue', () => {
  it('reads the words against the meeting day in its owner’s zone', () => {
    expect(resolveDue(null, 'by Friday', meeting)).toEqual({ due: '2026-03-06', dueText: 'by Friday' });
    expect(resolveDue(null, 'tomorrow', meeting)).toEqual({ due: '2026-03-06', dueText: 'tomorrow' });
    expect(resolveDue(null, 'tomorrow', { ...meeting, timeZone: 'UTC' })).toEqual({ due: '2026-03-05', dueText: 'tomorrow' });
  });

  it('prefers its reading of the words over the model’s date', () => {
    expect(resolveDue('2026-03-13', 'by Friday', meeting).due).toBe('2026-03-06');
  });

  it('keeps the model’s date when the words are beyond chrono, if it is a real day ahead', () => {
    expect(resolveDue('2026-03-20', 'end of the sprint', meeting)).toEqual({ due: '2026-03-20', dueText: 'end of the sprint' });
  });

  it('drops dates that are not real days, lie before the meeting or years ahead, and an unknown zone counts as UTC', () => {
    expect(resolveDue('2026-02-30', null, meeting).due).toBeNull();
    expect(resolveDue('next Friday', null, meeting).due).toBeNull();
    expect(resolveDue('2025-12-01', 'end of the sprint', meeting)).toEqual({ due: null, dueText: 'end of the sprint' });
    expect(resolveDue('2031-01-01', null, meeting).due).toBeNull();
    expect(resolveDue(null, 'tomorrow', { ...meeting, timeZone: 'Mars/Olympus' }).due).toBe('2026-03-05');
    expect(resolveDue(null, '  ', meeting)).toEqual({ due: null, dueText: null });
  });
});
