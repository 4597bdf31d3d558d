import { describe, expect, it } from 'vitest';
import type { TeamActivity } from '#shared/contracts/teams.ts';
import { activityLine, groupByDay, lastActiveLabel } from './team-data.ts';

// Local noon on a Wednesday: every "days ago" below is whole local days, whatever the machine's zone.
const NOW = new Date(2026, 10, 25, 12, 0, 0);
const daysAgo = (days: number, hour = 9) => new Date(2026, 10, 25 - days, hour, 30).toISOString();

const event = (id: string, at: string, overrides: Partial<TeamActivity> = {}): TeamActivity => ({
  id,
  kind: 'meeting_recorded',
  actor: { id: null, name: 'Grace Hopper' },
  at,
  meeting: null,
  subject: null,
  ...overrides,
});

describe('the Activity tab', () => {
  it('groups events Today, Yesterday, Last Week and Earlier, newest first, leaving out empty groups', () => {
    const events = [
      event('a', daysAgo(0, 11)),
      event('b', daysAgo(0, 0)),
      event('c', daysAgo(1, 23)),
      event('d', daysAgo(2)),
      event('e', daysAgo(8)),
      event('f', daysAgo(9)),
      event('g', daysAgo(40)),
    ];
    const groups = groupByDay(events, NOW);
    expect(groups.map((g) => [g.label, g.entries.map((e) => e.id)])).toEqual([
      ['Today', ['a', 'b']],
      ['Yesterday', ['c']],
      ['Last Week', ['d', 'e']],
      ['Earlier', ['f', 'g']],
    ]);
    expect(groupByDay([event('x', daysAgo(3))], NOW).map((g) => g.label)).toEqual(['Last Week']);
    expect(groupByDay([], NOW)).toEqual([]);
  });

  it('says what happened, linking only to a meeting still shared with the team', () => {
    const shared = activityLine(
      event('1', daysAgo(0), { kind: 'meeting_shared', meeting: { id: '5f0c3a0e-3f5e-4a39-9a43-1d1e7d7b8a01', title: 'Roadmap' } }),
      NOW,
    );
    expect(shared).toMatchObject({
      member: 'Grace Hopper',
      action: 'shared a meeting with the team',
      subject: 'Roadmap',
      meetingId: '5f0c3a0e-3f5e-4a39-9a43-1d1e7d7b8a01',
    });
    const unshared = activityLine(event('2', daysAgo(0), { kind: 'transcript_downloaded', meeting: { id: null, title: 'Old sync' } }), NOW);
    expect(unshared.subject).toBe('Old sync');
    expect(unshared.meetingId).toBeUndefined();
    expect(activityLine(event('3', daysAgo(0), { kind: 'member_invited', subject: 'ada@example.com' }), NOW).action).toBe(
      'invited ada@example.com to the team',
    );
    expect(activityLine(event('4', daysAgo(0), { kind: 'member_invited' }), NOW).action).toBe('created an invite link for the team');
    expect(activityLine(event('5', daysAgo(0), { kind: 'member_removed', subject: 'Alan' }), NOW).action).toBe('removed Alan from the team');
    expect(activityLine(event('6', daysAgo(0), { kind: 'member_joined' }), NOW).action).toBe('joined the team');
    expect(activityLine(event('7', daysAgo(0), { kind: 'insights_shared', meeting: { id: null, title: 'Roadmap' } }), NOW)).toMatchObject({
      action: 'shared AI insights from',
      subject: 'Roadmap',
    });
  });
});

describe('last active', () => {
  it('reads now, minutes, hours and days, and never for someone never seen', () => {
    const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
    expect(lastActiveLabel(ago(30_000), NOW)).toBe('Now');
    expect(lastActiveLabel(ago(5 * 60_000), NOW)).toBe('5 minutes ago');
    expect(lastActiveLabel(ago(60 * 60_000), NOW)).toBe('1 hour ago');
    expect(lastActiveLabel(ago(3 * 60 * 60_000), NOW)).toBe('3 hours ago');
    expect(lastActiveLabel(ago(49 * 60 * 60_000), NOW)).toBe('2 days ago');
    expect(lastActiveLabel(null, NOW)).toBe('Never');
  });
});
