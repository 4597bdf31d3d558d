import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TrackedActionItem } from '#shared/contracts/tracker.ts';
import { SignedIn } from '#tests/support/web/test-auth.tsx';
import { installTrackerServer, testId, testItem, testMeeting } from '#tests/support/web/tracker-server.ts';
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

/** As the server orders them: newest meeting first, then in the order of the notes. */
function seedItems(): TrackedActionItem[] {
  return [
    testItem(checkIn, { text: 'Check the supplier prices', assignee: 'Omar Haddad', startMs: 20_000 }),
    testItem(planning, {
      text: 'Send the revised budget to finance',
      assignee: 'Omar Haddad',
      due: '2026-11-20',
      dueText: 'by Friday',
      overdue: true,
      startMs: 10_000,
      mentions: [
        {
          id: testId(),
          meeting: checkIn,
          segmentId: testId(),
          startMs: 10_000,
          text: 'Omar, did you send the revised budget to finance yet?',
          resolution: null,
        },
      ],
    }),
    testItem(planning, {
      text: 'Book the photographer',
      assignee: 'Maria',
      due: '2026-11-24',
      dueText: 'next Tuesday',
      startMs: 20_000,
      mentions: [
        { id: testId(), meeting: checkIn, segmentId: testId(), startMs: 754_000, text: 'The photographer is booked, we shoot on Tuesday.', resolution: null },
      ],
    }),
    testItem(planning, { text: 'Order the new batteries for the field recorders', startMs: 40_000 }),
    testItem(planning, { text: 'Draft the press release', assignee: 'Maria', status: 'done', startMs: 50_000 }),
    testItem(planning, { text: 'Water the office plants', status: 'dismissed', startMs: 60_000 }),
  ];
}

function Location() {
  return <output data-testid="location">{useLocation().search}</output>;
}
const urlParams = () => new URLSearchParams(screen.getByTestId('location').textContent ?? '');

function renderTracker(url = '/insights?tab=action-items', items = seedItems()) {
  const server = installTrackerServer({ items });
  render(
    <SignedIn initialEntries={[url]}>
      <InsightsPage />
      <Location />
    </SignedIn>,
  );
  return server;
}

const list = () => screen.getByRole('list', { name: 'Action items' });
/** The texts of the listed items, in order (mentions are lists of their own, inside the rows). */
const listedTexts = () =>
  [...list().querySelectorAll(':scope > li')].map((li) => document.getElementById(li.getAttribute('aria-labelledby') ?? '')?.textContent);
const row = (text: string) => within(screen.getByRole('listitem', { name: text }));
const lastListQuery = (server: ReturnType<typeof installTrackerServer>) => server.requests.filter((r) => r.path === '/api/v1/action-items').at(-1)?.query;
/** A status filter, whatever its count ("Done 2"). */
const statusButton = (name: string) => screen.getByRole('button', { name: new RegExp(`^${name} \\d+$`) });

describe('/insights › Action Items', () => {
  it('lists the open items across meetings with owner (Unassigned when none), due date, Overdue, status and a link to the moment', async () => {
    const server = renderTracker();
    expect(screen.getByRole('status', { name: 'Loading action items' })).toBeTruthy();
    await screen.findByRole('list', { name: 'Action items' });
    expect(listedTexts()).toEqual([
      'Check the supplier prices',
      'Send the revised budget to finance',
      'Book the photographer',
      'Order the new batteries for the field recorders',
    ]);
    expect(lastListQuery(server)).toEqual({ status: 'open', page: '1', pageSize: '25' });

    const budget = row('Send the revised budget to finance');
    budget.getByText('Omar Haddad');
    budget.getByText('Due: Fri, Nov 20, 2026');
    budget.getByText('Overdue');
    budget.getByText('Open');
    expect(budget.getByRole('link', { name: 'Spring campaign' }).getAttribute('href')).toBe(`/meetings/${planning.id}?t=10000`);
    expect(budget.getByRole('link', { name: 'Spring campaign' }).parentElement?.textContent).toBe('Spring campaign · Nov 17, 2026 at 00:10');
    expect(row('Book the photographer').queryByText('Overdue')).toBeNull();
    row('Order the new batteries for the field recorders').getByText('Unassigned');

    expect(['Open 4', 'Overdue 1', 'Done 1', 'Dismissed 1', 'All 6'].map((name) => screen.getByRole('button', { name }).getAttribute('aria-pressed'))).toEqual([
      'true',
      'false',
      'false',
      'false',
      'false',
    ]);
  });

  it('filters by status, owner and meeting, keeps them in the URL, and reads them back from it', async () => {
    const server = renderTracker();
    await screen.findByRole('list', { name: 'Action items' });

    fireEvent.click(statusButton('Overdue'));
    await waitFor(() => expect(listedTexts()).toEqual(['Send the revised budget to finance']));
    expect(urlParams().get('status')).toBe('overdue');
    expect(urlParams().get('tab')).toBe('action-items');
    expect(lastListQuery(server)).toMatchObject({ status: 'overdue' });

    fireEvent.change(screen.getByLabelText('Owner'), { target: { value: 'unassigned' } });
    await screen.findByText('No overdue action items.');
    expect(lastListQuery(server)).toMatchObject({ status: 'overdue', assignee: 'unassigned' });
    expect(urlParams().get('owner')).toBe('unassigned');
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(listedTexts()).toHaveLength(4));
    expect(urlParams().toString()).toBe('tab=action-items');

    fireEvent.change(screen.getByLabelText('Meeting'), { target: { value: checkIn.id } });
    await waitFor(() => expect(listedTexts()).toEqual(['Check the supplier prices']));
    expect(urlParams().get('meeting')).toBe(checkIn.id);
    expect(lastListQuery(server)).toMatchObject({ meetingId: checkIn.id });
    cleanup();

    const reopened = renderTracker(`/insights?tab=action-items&status=done&owner=Maria`);
    await waitFor(() => expect(listedTexts()).toEqual(['Draft the press release']));
    expect(lastListQuery(reopened)).toEqual({ status: 'done', assignee: 'Maria', page: '1', pageSize: '25' });
    expect((screen.getByLabelText('Owner') as HTMLSelectElement).value).toBe('Maria');
    expect(statusButton('Done').getAttribute('aria-pressed')).toBe('true');
    cleanup();

    // What the address bar says that makes no sense is read as the defaults.
    const nonsense = renderTracker(`/insights?tab=action-items&status=late&meeting=nope&page=-3`);
    await screen.findByRole('list', { name: 'Action items' });
    expect(lastListQuery(nonsense)).toEqual({ status: 'open', page: '1', pageSize: '25' });
  });

  it('ticks an item done through its meeting’s notes and refetches (Undo opens it again); a done one unticks; a dismissed one cannot be ticked', async () => {
    const server = renderTracker();
    await screen.findByRole('list', { name: 'Action items' });
    const photographer = server.items.find((i) => i.text === 'Book the photographer')!;

    fireEvent.click(screen.getByRole('checkbox', { name: 'Book the photographer' }));
    await waitFor(() => expect(listedTexts()).not.toContain('Book the photographer'));
    expect(server.writes()).toEqual([
      { method: 'PATCH', path: `/api/v1/meetings/${planning.id}/notes/items/${photographer.id}`, query: {}, body: { status: 'done' } },
    ]);
    expect(screen.getByRole('button', { name: 'Done 2' })).toBeTruthy();
    expect(toast.success).toHaveBeenCalledWith('Action item done', expect.objectContaining({ action: expect.objectContaining({ label: 'Undo' }) }));

    const [, options] = toast.success.mock.calls[0] as [string, { action: { onClick: () => void } }];
    act(() => options.action.onClick());
    await waitFor(() => expect(listedTexts()).toContain('Book the photographer'));
    expect(server.writes().at(-1)?.body).toEqual({ status: 'open' });

    fireEvent.click(statusButton('Done'));
    await waitFor(() => expect(listedTexts()).toEqual(['Draft the press release']));
    const done = screen.getByRole('checkbox', { name: 'Draft the press release' });
    expect(done.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(done);
    await screen.findByText('No done action items.');
    expect(server.writes().at(-1)?.body).toEqual({ status: 'open' });

    fireEvent.click(statusButton('Dismissed'));
    await waitFor(() => expect(listedTexts()).toEqual(['Water the office plants']));
    expect((screen.getByRole('checkbox', { name: 'Water the office plants' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says why a tick failed and leaves the item as it was', async () => {
    const server = renderTracker();
    await screen.findByRole('list', { name: 'Action items' });
    server.failNext({ status: 404, body: { error: { code: 'NOT_FOUND', message: 'Item not found' } } }, 'PATCH');
    const box = screen.getByRole('checkbox', { name: 'Check the supplier prices' });
    fireEvent.click(box);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Item not found'));
    expect(box.getAttribute('aria-checked')).toBe('false');
    expect(listedTexts()).toContain('Check the supplier prices');
    expect(server.items.find((i) => i.text === 'Check the supplier prices')?.status).toBe('open');
  });

  it('marks a teammate’s item "Shared by <owner>" and leaves ticking it and answering its mentions to them', async () => {
    const teammates = { ...testMeeting('Partner sync', '2026-11-18T15:00:00.000Z'), sharedBy: { id: testId(), name: 'Sam Sharer' } };
    const items = [
      testItem(teammates, {
        text: 'Renew the venue contract',
        startMs: 5_000,
        mentions: [{ id: testId(), meeting: teammates, segmentId: testId(), startMs: 9_000, text: 'The venue contract is renewed.', resolution: null }],
      }),
      ...seedItems(),
    ];
    renderTracker('/insights?tab=action-items', items);
    await screen.findByRole('list', { name: 'Action items' });
    const shared = row('Renew the venue contract');
    expect(shared.getAllByRole('link', { name: 'Partner sync' })[0]!.parentElement?.textContent).toBe(
      'Partner sync · Nov 18, 2026 at 00:05 · Shared by Sam Sharer',
    );
    expect((shared.getByRole('checkbox') as HTMLButtonElement).disabled).toBe(true);
    expect(shared.queryByRole('button', { name: 'Done' })).toBeNull();
    expect(shared.queryByRole('button', { name: 'Slipped' })).toBeNull();
    // One's own items stay as they were.
    const own = row('Send the revised budget to finance');
    expect(own.getByRole('link', { name: 'Spring campaign' }).parentElement?.textContent).toBe('Spring campaign · Nov 17, 2026 at 00:10');
    expect((own.getByRole('checkbox') as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows a later meeting’s mention of an open item and answers “done or slipped?”', async () => {
    const server = renderTracker();
    await screen.findByRole('list', { name: 'Action items' });
    const [budget, photographer] = ['Send the revised budget to finance', 'Book the photographer'].map((text) => server.items.find((i) => i.text === text)!);

    const budgetRow = row('Send the revised budget to finance');
    budgetRow.getByText((_, element) => element?.tagName === 'SPAN' && element.textContent === 'Mentioned again in Campaign check-in at 00:10');
    expect(budgetRow.getByRole('link', { name: 'Campaign check-in' }).getAttribute('href')).toBe(`/meetings/${checkIn.id}?t=10000`);
    budgetRow.getByText('“Omar, did you send the revised budget to finance yet?”');
    row('Book the photographer').getByText(
      (_, element) => element?.tagName === 'SPAN' && element.textContent === 'Mentioned again in Campaign check-in at 12:34',
    );

    fireEvent.click(budgetRow.getByRole('button', { name: 'Slipped' }));
    await screen.findByText('You answered: slipped');
    expect(server.writes()).toEqual([
      { method: 'POST', path: `/api/v1/action-items/${budget!.id}/mentions/${budget!.mentions[0]!.id}`, query: {}, body: { resolution: 'slipped' } },
    ]);
    expect(listedTexts()).toContain('Send the revised budget to finance'); // slipped: still open
    expect(row('Send the revised budget to finance').queryByRole('button', { name: 'Slipped' })).toBeNull();

    fireEvent.click(row('Book the photographer').getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(listedTexts()).not.toContain('Book the photographer'));
    expect(server.writes().at(-1)).toMatchObject({
      path: `/api/v1/action-items/${photographer!.id}/mentions/${photographer!.mentions[0]!.id}`,
      body: { resolution: 'done' },
    });
    expect(toast.success).toHaveBeenCalledWith('Action item done');
  });

  it('offers Try again when the list cannot be loaded, and says so plainly when there are no action items', async () => {
    installTrackerServer({}).failNext({ status: 500 });
    // The failing server above answers the first request; the second install replaces it for the retry.
    render(
      <SignedIn initialEntries={['/insights?tab=action-items']}>
        <InsightsPage />
      </SignedIn>,
    );
    await screen.findByText('Action items could not be loaded.');
    installTrackerServer({ items: seedItems() });
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(listedTexts()).toHaveLength(4));
    cleanup();

    renderTracker('/insights?tab=action-items', []);
    await screen.findByText('No action items yet');
    expect(screen.queryByRole('button', { name: 'Clear filters' })).toBeNull();
  });
});
