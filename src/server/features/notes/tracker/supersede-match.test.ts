import { describe, expect, it } from 'vitest';
import { SAME_SUBJECT, findSupersedes, isSameSubject, subjectOverlap, subjectStems } from './supersede-match.ts';

// Hand-written (earlier, later) decision pairs the threshold was measured on, with their overlap
// (Dice of the two subjects).
const SAME: Array<[earlier: string, later: string, overlap: number]> = [
  ["We'll launch on March 3.", 'Launch moves to March 10.', 1],
  ["Let's go with the blue theme for the campaign visuals.", 'We decided to switch the campaign visuals to a green theme.', 0.75],
  ['We agreed to cap the video budget at thirty thousand.', 'The video budget goes up to thirty-five thousand.', 0.8],
  ['Use Postgres for the analytics database.', "We're moving the analytics database to ClickHouse.", 2 / 3],
  ['The weekly sync is on Tuesdays.', 'The weekly sync moves to Thursdays.', 2 / 3],
  ['We decided to hire two contractors for the mobile app.', "We'll hire one full-time engineer for the mobile app instead of contractors.", 8 / 13],
  ['Price stays at 20 euros a month.', 'We agreed to raise the price to 25 euros a month.', 1],
];
/** Same subject in other words: only "beta" is shared, so it is missed. */
const MISSED: Array<[string, string, number]> = [['The beta opens to all customers in June.', 'We are pushing the beta back to September.', 1 / 3]];
const DIFFERENT: Array<[earlier: string, later: string, overlap: number]> = [
  ['Use Postgres.', 'Hire a designer.', 0],
  ["We'll launch on March 3.", 'The budget review is in March.', 0.4],
  ["Let's go with the blue theme for the campaign visuals.", 'We decided to cap the campaign budget at thirty thousand.', 2 / 9],
  ['Use Postgres for the analytics database.', "We'll back up the database every night.", 1 / 3],
  ['The weekly sync is on Tuesdays.', 'The design review is on Tuesdays.', 1 / 3],
  ['We decided to hire two contractors for the mobile app.', 'We agreed the mobile app ships in May.', 4 / 9],
  ['Price stays at 20 euros a month.', 'The team lunch budget is 20 euros a person.', 0.25],
  ['We decided to go with the blue theme.', 'We decided to go with the kinetic batteries.', 0],
  ["Let's use a rubber case for the remote.", 'We agreed on the scroll wheel for the remote.', 1 / 3],
];

const scoreOf = (earlier: string, later: string) => subjectOverlap(subjectStems(earlier), subjectStems(later));

describe('superseding decisions: a later decision on the same subject', () => {
  it.each(SAME)('"%s" → "%s" is the same subject', (earlier, later, overlap) => {
    const score = scoreOf(earlier, later);
    expect(score.overlap).toBeCloseTo(overlap, 2);
    expect(isSameSubject(score)).toBe(true);
  });

  it.each(MISSED)('"%s" → "%s" is missed (one shared word)', (earlier, later, overlap) => {
    const score = scoreOf(earlier, later);
    expect(score.overlap).toBeCloseTo(overlap, 2);
    expect(isSameSubject(score)).toBe(false);
  });

  it.each(DIFFERENT)('"%s" → "%s" is another subject', (earlier, later, overlap) => {
    const score = scoreOf(earlier, later);
    expect(score.overlap).toBeCloseTo(overlap, 2);
    expect(isSameSubject(score)).toBe(false);
  });

  it('the bar separates every same-subject pair from every other in these cases', () => {
    const lowestSame = Math.min(...SAME.map(([a, b]) => scoreOf(a, b).overlap));
    const highestDifferent = Math.max(...DIFFERENT.map(([a, b]) => scoreOf(a, b).overlap));
    expect(lowestSame).toBeGreaterThanOrEqual(SAME_SUBJECT);
    expect(highestDifferent).toBeLessThan(SAME_SUBJECT);
  });

  it('the subject leaves out how a decision is phrased and the numbers that change', () => {
    expect([...subjectStems("We've decided the launch moves to March 10.")].sort()).toEqual(['launch', 'march']);
  });

  it('suggests, for each later decision, the best earlier match, the newer of equals', () => {
    const earlier = [
      { id: 'first', text: "We'll launch on March 3.", startedAt: '2026-01-05T10:00:00.000Z' },
      { id: 'second', text: 'Launch moves to March 10.', startedAt: '2026-02-05T10:00:00.000Z' },
      { id: 'other', text: 'Use Postgres for the analytics database.', startedAt: '2026-02-05T10:00:00.000Z' },
    ];
    const later = [
      { id: 'third', text: 'The launch moves to March 17.', startedAt: '2026-03-01T10:00:00.000Z' },
      { id: 'unrelated', text: 'Hire a designer.', startedAt: '2026-03-01T10:00:00.000Z' },
    ];
    expect(findSupersedes(later, earlier)).toEqual([{ earlierId: 'second', laterId: 'third' }]);
  });
});
