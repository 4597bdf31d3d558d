import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Decision } from '#shared/contracts/tracker.ts';
import { SignedIn } from '#tests/support/web/test-auth.tsx';
import { installTrackerServer, testDecision, testId, testMeeting } from '#tests/support/web/tracker-server.ts';
import { InsightsPage } from '../components/insights-page.tsx';

const toast = vi.hoisted(() => Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('#web/lib/toast.ts', () => ({ toast }));
vi.mock('#web/lib/supabase.ts', () => ({
  loadSupabase: async () => ({ auth: { getSession: async () => ({ data: { session: { access_token: 'token-1' } } }) } }),
}));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

const planning = testMeeting('Spring campaign', '2026-11-17T15:00:00.000Z');
const checkIn = testMeeting('Campaign check-in', '2026-11-19T15:00:00.000Z');

/** Newest meeting first; the check-in's green theme may replace the planning's blue one. */
function seedDecisions(): Decision[] {
  const blue = testDecision(planning, { text: "Let's go with the blue theme for the campaign visuals.", startMs: 50_000 });
  const postgres = testDecision(planning, { text: 'We decided to use Postgres for the analytics database.', startMs: 60_000 });
  const green = testDecision(checkIn, {
    text: 'We decided to switch the campaign visuals to a green theme.',
    startMs: 40_000,
    suggestedSupersedes: [{ linkId: testId(), decision: { id: blue.id, text: blue.text, meeting: planning, startMs: blue.startMs } }],
  });
  return [green, blue, postgres];
}

function Location() {
  return <output data-testid="location">{useLocation().search}</output>;
}
const urlParams = () => new URLSearchParams(screen.getByTestId('location').textContent ?? '');

function renderRegister(url = '/insights?tab=decisions', decisions = seedDecisions()) {
  const server = installTrackerServer({ decisions });
  render(
    <SignedIn initialEntries={[url]}>
      <InsightsPage />
      <Location />
    </SignedIn>,
  );
  return server;
}

const listed = () =>
  [...screen.getByRole('list', { name: 'Decisions' }).querySelectorAll(':scope > li')].map(
    (li) => document.getElementById(li.getAttribute('aria-labelledby') ?? '')?.textContent,
  );
const row = (text: string) => within(screen.getByRole('listitem', { name: text }));
const decisionQueries = (server: ReturnType<typeof installTrackerServer>) => server.requests.filter((r) => r.path === '/api/v1/decisions').map((r) => r.query);

describe('/insights › Decisions', () => {
  it('is the fifth tab: every decision newest first, each linked to the moment it was said', async () => {
    renderRegister();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Topics', 'Sentiment', 'Participation', 'Action Items', 'Decisions']);
    expect(screen.getByRole('status', { name: 'Loading decisions' })).toBeTruthy();
    await screen.findByRole('list', { name: 'Decisions' });
    expect(listed()).toEqual([
      'We decided to switch the campaign visuals to a green theme.',
      "Let's go with the blue theme for the campaign visuals.",
      'We decided to use Postgres for the analytics database.',
    ]);
    const postgres = row('We decided to use Postgres for the analytics database.');
    expect(postgres.getByRole('link', { name: 'Spring campaign' }).getAttribute('href')).toBe(`/meetings/${planning.id}?t=60000`);
    expect(postgres.getByRole('link', { name: 'Spring campaign' }).parentElement?.textContent).toBe('Spring campaign · Nov 17, 2026 at 01:00');
    expect(postgres.queryByText('Superseded')).toBeNull();
  });

  it('searches after the typing pauses, keeps the search in the URL, and says when nothing matches', async () => {
    const server = renderRegister();
    await screen.findByRole('list', { name: 'Decisions' });
    const box = screen.getByRole('searchbox', { name: 'Search decisions' });
    for (const text of ['g', 'gr', 'green']) fireEvent.change(box, { target: { value: text } });
    await waitFor(() => expect(listed()).toEqual(['We decided to switch the campaign visuals to a green theme.']));
    expect(urlParams().get('q')).toBe('green');
    expect(urlParams().get('tab')).toBe('decisions');
    // One request for the pause, none per keystroke.
    expect(decisionQueries(server)).toEqual([
      { page: '1', pageSize: '25' },
      { q: 'green', page: '1', pageSize: '25' },
    ]);

    fireEvent.change(box, { target: { value: 'purple' } });
    await screen.findByText('No decisions match “purple”.');
    fireEvent.click(screen.getByRole('button', { name: 'Show all decisions' }));
    await waitFor(() => expect(listed()).toHaveLength(3));
    expect(urlParams().has('q')).toBe(false);
    expect((box as HTMLInputElement).value).toBe('');
    cleanup();

    // A link with a search opens on it.
    const linked = renderRegister('/insights?tab=decisions&q=spring%20postgres');
    await waitFor(() => expect(listed()).toEqual(['We decided to use Postgres for the analytics database.']));
    expect((screen.getByRole('searchbox', { name: 'Search decisions' }) as HTMLInputElement).value).toBe('spring postgres');
    expect(decisionQueries(linked)).toEqual([{ q: 'spring postgres', page: '1', pageSize: '25' }]);
  });

  it('“Supersedes” confirms a suggested link: the earlier decision is marked superseded, the later one says what it replaced', async () => {
    const server = renderRegister();
    await screen.findByRole('list', { name: 'Decisions' });
    const linkId = server.decisions[0]!.suggestedSupersedes[0]!.linkId;
    const green = row('We decided to switch the campaign visuals to a green theme.');
    const question = within(green.getByRole('group', { name: 'Does this replace an earlier decision?' }));
    question.getByText(/Does this replace “Let's go with the blue theme for the campaign visuals.” from/);
    expect(question.getByRole('link', { name: 'Spring campaign' }).getAttribute('href')).toBe(`/meetings/${planning.id}?t=50000`);

    fireEvent.click(question.getByRole('button', { name: 'Supersedes' }));
    await waitFor(() => expect(row("Let's go with the blue theme for the campaign visuals.").queryByText('Superseded')).not.toBeNull());
    expect(server.writes()).toEqual([{ method: 'PATCH', path: `/api/v1/decisions/links/${linkId}`, query: {}, body: { status: 'confirmed' } }]);
    const blue = row("Let's go with the blue theme for the campaign visuals.");
    blue.getByText(/Superseded by “We decided to switch the campaign visuals to a green theme.” in/);
    expect(blue.getByRole('link', { name: 'Campaign check-in' }).getAttribute('href')).toBe(`/meetings/${checkIn.id}?t=40000`);
    const after = row('We decided to switch the campaign visuals to a green theme.');
    expect(after.queryByRole('group', { name: 'Does this replace an earlier decision?' })).toBeNull();
    after.getByText(/^Supersedes “Let's go with the blue theme/);
    expect(toast.success).toHaveBeenCalledWith('Marked as superseding the earlier decision');
  });

  it('“Not related” rejects it: nothing is marked, and the question goes away', async () => {
    const server = renderRegister();
    await screen.findByRole('list', { name: 'Decisions' });
    const linkId = server.decisions[0]!.suggestedSupersedes[0]!.linkId;
    fireEvent.click(row('We decided to switch the campaign visuals to a green theme.').getByRole('button', { name: 'Not related' }));
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Does this replace an earlier decision?' })).toBeNull());
    expect(server.writes()).toEqual([{ method: 'PATCH', path: `/api/v1/decisions/links/${linkId}`, query: {}, body: { status: 'rejected' } }]);
    expect(screen.queryByText('Superseded')).toBeNull();
    expect(screen.queryByText(/^Supersedes “/)).toBeNull();
  });

  it('offers Try again when the register cannot be loaded, and says so plainly when there are no decisions', async () => {
    installTrackerServer({}).failNext('offline');
    render(
      <SignedIn initialEntries={['/insights?tab=decisions']}>
        <InsightsPage />
      </SignedIn>,
    );
    await screen.findByText('Decisions could not be loaded.');
    installTrackerServer({ decisions: seedDecisions() });
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(listed()).toHaveLength(3));
    cleanup();

    renderRegister('/insights?tab=decisions', []);
    await screen.findByText('No decisions yet');
  });
});
