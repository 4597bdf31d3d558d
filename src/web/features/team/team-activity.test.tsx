import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { TeamActivity as Entry } from '#shared/contracts/teams.ts';
import { TeamActivity } from './team-activity.tsx';
import { activityLine, groupByDay } from './team-data.ts';

afterEach(cleanup);

const NOW = new Date(2026, 10, 25, 12, 0, 0);
const MEETING_ID = '5f0c3a0e-3f5e-4a39-9a43-1d1e7d7b8a01';

describe('the Activity tab', () => {
  it('reads “shared “Launch review” with the team”, the title a link to the meeting in the middle of the sentence', () => {
    const events: Entry[] = [
      {
        id: '0b7e4c5a-1d2e-4f3a-8b9c-000000000001',
        kind: 'meeting_shared',
        actor: { id: null, name: 'Grace Hopper' },
        at: new Date(2026, 10, 25, 9, 30).toISOString(),
        meeting: { id: MEETING_ID, title: 'Launch review' },
        subject: null,
      },
    ];
    const groups = groupByDay(events, NOW).map((g) => ({ label: g.label, entries: g.entries.map((e) => activityLine(e, NOW)) }));
    render(
      <MemoryRouter>
        <TeamActivity groups={groups} sample={false} />
      </MemoryRouter>,
    );
    const item = screen.getByRole('listitem');
    expect(item.querySelector('p')?.textContent).toBe('Grace Hopper shared “Launch review” with the team');
    expect(screen.getByRole('link', { name: '“Launch review”' }).getAttribute('href')).toBe(`/meetings/${MEETING_ID}`);
  });
});
