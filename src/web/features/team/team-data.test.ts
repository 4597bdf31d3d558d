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
      action: 'shared',
      subject: 'Roadmap',
      after: 'with the team',
      meetingId: '5f0c3a0e-3f5e-4a39-9a43-1d1e7d7b8a01',
    });
    const unshared = activityLine(event('2', daysAgo(0), { kind: 'transcript_downloaded', meeting: { id: null, title: 'Old sync' } }), NOW);
    expect(unshared.subject).toBe('Old sync');
    expect(unshared.meetingId).toBeUndefined();
  });

  it('reads naturally for every kind, with the meeting’s title in its place', () => {
    const meeting = { id: null, title: 'Launch review' };
    const sentence = (overrides: Partial<TeamActivity>) => {
      const line = activityLine(event('x', daysAgo(0), overrides), NOW);
      return [line.member, line.action, line.subject === undefined ? '' : `“${line.subject}”`, line.after ?? ''].filter(Boolean).join(' ');
    };
    const read: Record<TeamActivity['kind'], string[]> = {
      meeting_recorded: [sentence({ kind: 'meeting_recorded', meeting }), sentence({ kind: 'meeting_recorded' })],
      meeting_imported: [sentence({ kind: 'meeting_imported', meeting }), sentence({ kind: 'meeting_imported' })],
      meeting_shared: [sentence({ kind: 'meeting_shared', meeting }), sentence({ kind: 'meeting_shared' })],
      transcript_downloaded: [sentence({ kind: 'transcript_downloaded', meeting }), sentence({ kind: 'transcript_downloaded' })],
      insights_shared: [sentence({ kind: 'insights_shared', meeting }), sentence({ kind: 'insights_shared' })],
      member_invited: [sentence({ kind: 'member_invited', subject: 'ada@example.com' }), sentence({ kind: 'member_invited' })],
      member_removed: [sentence({ kind: 'member_removed', subject: 'Alan Turing' }), sentence({ kind: 'member_removed' })],
      member_joined: [sentence({ kind: 'member_joined' })],
    };
    expect(read).toEqual({
      meeting_recorded: ['Grace Hopper recorded “Launch review”', 'Grace Hopper recorded a meeting'],
      meeting_imported: ['Grace Hopper imported “Launch review”', 'Grace Hopper imported a meeting'],
      meeting_shared: ['Grace Hopper shared “Launch review” with the team', 'Grace Hopper shared a meeting with the team'],
      transcript_downloaded: ['Grace Hopper downloaded the transcript of “Launch review”', 'Grace Hopper downloaded a transcript'],
      insights_shared: ['Grace Hopper shared the AI insights of “Launch review” by link', 'Grace Hopper shared a meeting’s AI insights by link'],
      member_invited: ['Grace Hopper invited ada@example.com to the team', 'Grace Hopper created an invite link for the team'],
      member_removed: ['Grace Hopper removed Alan Turing from the team', 'Grace Hopper removed a member from the team'],
      member_joined: ['Grace Hopper joined the team'],
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
