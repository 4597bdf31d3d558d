import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MeetingDetail } from '#shared/contracts/meetings.ts';
import type { Insight, NotesState } from '#shared/contracts/notes.ts';
import { notesStore } from '#web/lib/realtime/realtime-store.ts';
import { installMeetingServer } from '#tests/support/web/meeting-server.ts';
import { SignedIn } from '#tests/support/web/test-auth.tsx';
import { MeetingView } from '../components/meeting-view.tsx';
import { MeetingPage } from './meeting-page.tsx';

const toast = vi.hoisted(() => Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('#web/lib/toast.ts', () => ({ toast }));
vi.mock('#web/lib/supabase.ts', () => ({
  loadSupabase: async () => ({ auth: { getSession: async () => ({ data: { session: { access_token: 'token-1' } } }) } }),
}));

const MEETING_ID = '6f1c2b8e-3d4a-4e5f-9a6b-7c8d9e0f1a2b';
const SPEAKER = 'a0000000-0000-4000-8000-000000000001';
const seg = (n: number) => `b0000000-0000-4000-8000-00000000000${n}`;
const item = (n: number) => `c0000000-0000-4000-8000-00000000000${n}`;

const READY: NotesState = {
  status: 'ready',
  engine: 'local',
  failureReason: null,
  droppedUncited: 0,
  localFallbackParts: 0,
  progress: null,
  outOfDate: false,
  generatedAt: '2026-03-02T10:05:00.000Z',
};

const insight = (n: number, fields: Partial<Insight> & Pick<Insight, 'kind' | 'text'>): Insight => ({
  id: item(n),
  segmentIds: [seg(1)],
  startMs: 0,
  endMs: null,
  assignee: null,
  due: null,
  dueText: null,
  status: 'open',
  suggested: true,
  ...fields,
});

function planningMeeting(overrides: Partial<MeetingDetail> = {}): MeetingDetail {
  return {
    id: MEETING_ID,
    title: 'Release planning',
    startedAt: '2026-03-02T10:00:00.000Z',
    durationSeconds: 60,
    status: 'ready',
    source: 'upload',
    participants: ['Ada'],
    summary: 'The release moves to Friday. Ada sends the credentials.',
    isSample: false,
    hasAudio: false,
    createdAt: '2026-03-02T10:00:00.000Z',
    processing: null,
    failureReason: null,
    options: {
      speakerDetection: true,
      emotionalAnalysis: true,
      actionItems: true,
      summary: true,
      noiseReduction: true,
      highQuality: false,
      autoShare: false,
    },
    audioSources: null,
    speakers: [{ id: SPEAKER, label: 'Speaker 1', displayName: 'Ada' }],
    segments: [
      { id: seg(1), speakerId: SPEAKER, startMs: 0, endMs: 9_000, text: 'Good morning, let us plan the release.', confidence: 0.9 },
      { id: seg(2), speakerId: SPEAKER, startMs: 10_000, endMs: 19_000, text: 'The release moves to Friday.', confidence: 0.9 },
      { id: seg(3), speakerId: SPEAKER, startMs: 35_000, endMs: 44_000, text: 'I will send the credentials by Wednesday.', confidence: 0.9 },
    ],
    insights: [
      insight(1, { kind: 'key_point', text: 'The release moves to Friday.', segmentIds: [seg(2)], startMs: 10_000 }),
      insight(2, { kind: 'action_item', text: 'Send the credentials', segmentIds: [seg(3)], startMs: 35_000, due: '2026-03-04', dueText: 'by Wednesday' }),
      insight(3, { kind: 'action_item', text: 'Book the demo room', segmentIds: [seg(3)], startMs: 35_000, assignee: 'Grace', suggested: false }),
      insight(4, { kind: 'decision', text: 'Ship on Friday', segmentIds: [seg(2)], startMs: 10_000 }),
      insight(5, { kind: 'topic', text: 'Release date', segmentIds: [seg(1), seg(2)], startMs: 0, endMs: 19_000 }),
    ],
    notes: READY,
    ...overrides,
  };
}

let server: ReturnType<typeof installMeetingServer>;
const scrolled = vi.fn();
beforeEach(() => {
  // jsdom lays nothing out and has no scrollIntoView: record which element was asked to come into view.
  Element.prototype.scrollIntoView = function (this: Element) {
    scrolled(this);
  };
});
afterEach(() => {
  cleanup();
  notesStore.clear();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

async function openMeeting(meeting: MeetingDetail, search = '') {
  server = installMeetingServer(meeting);
  render(
    <SignedIn initialEntries={[`/meetings/${meeting.id}${search}`]}>
      <Routes>
        <Route path="/meetings/:id" element={<MeetingPage ShareDialog={() => null} />} />
      </Routes>
    </SignedIn>,
  );
  return screen.findByRole('region', { name: 'Notes' });
}

const itemRow = (panel: HTMLElement, text: string) => {
  const row = within(panel).getByText(text).closest('li');
  if (!row) throw new Error(`no item "${text}"`);
  return row;
};
const patches = () => server.requests.filter((r) => r.method === 'PATCH').map((r) => ({ path: r.path, body: r.body }));
const click = async (element: HTMLElement) => {
  await act(async () => {
    fireEvent.click(element);
  });
};

describe('the Notes panel of the meeting page', () => {
  it('shows the summary and each section with times, the engine, suggestions, owners and due dates', async () => {
    const panel = await openMeeting(planningMeeting());
    expect(within(panel).getByText('Notes by the local engine')).toBeTruthy();
    expect(within(panel).getByText('The release moves to Friday. Ada sends the credentials.')).toBeTruthy();
    // Under local notes: that a model writes fuller ones, and a link to where Settings says how.
    const hint = within(panel).getByText(/^Written without an AI model\./);
    expect(hint.textContent).toBe(
      'Written without an AI model. A connected model (Ollama or any OpenAI-compatible endpoint) writes fuller summaries: see how in Settings.',
    );
    expect(within(hint).getByRole('link', { name: 'see how in Settings' }).getAttribute('href')).toBe('/settings?tab=recording#notes-model');
    expect(
      within(panel)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Summary', 'Key points', 'Action items', 'Decisions', 'Topics']);
    expect(within(panel).getByRole('list', { name: 'Key points' }).textContent).toContain('00:10The release moves to Friday.');
    expect(within(panel).getByRole('list', { name: 'Topics' }).textContent).toContain('00:00–00:19Release date');

    const credentials = itemRow(panel, 'Send the credentials');
    expect(within(credentials).getByText('Suggestion')).toBeTruthy();
    expect(within(credentials).getByText('Owner: Unassigned')).toBeTruthy();
    expect(within(credentials).getByText('Due by Wednesday (Wed, Mar 4, 2026)')).toBeTruthy();
    expect(within(credentials).getByRole('button', { name: 'Accept' })).toBeTruthy();
    expect(within(credentials).getByRole('checkbox', { name: 'Done' }).getAttribute('aria-checked')).toBe('false');

    const room = itemRow(panel, 'Book the demo room');
    expect(within(room).getByText('Owner: Grace')).toBeTruthy();
    expect(within(room).queryByText('Suggestion')).toBeNull(); // accepted already: no Accept
    expect(within(room).queryByRole('button', { name: 'Accept' })).toBeNull();
    expect(within(room).getByRole('button', { name: 'Dismiss' })).toBeTruthy();

    // The timeline over the player: the topic, labelled with its span.
    expect(screen.getByRole('button', { name: 'Topic Release date, 00:00–00:19' })).toBeTruthy();
  });

  it('an item jumps to its moment: the cited line is marked and scrolled to (no recording: nothing to seek)', async () => {
    const panel = await openMeeting(planningMeeting());
    const transcript = screen.getByRole('list', { name: 'Transcript' });
    const lineOf = (text: string) => within(transcript).getByText(text).closest('li')!;
    expect(lineOf('I will send the credentials by Wednesday.').dataset.cited).toBe('false');

    await click(within(itemRow(panel, 'Send the credentials')).getByRole('button', { name: /Send the credentials/ }));
    expect(lineOf('I will send the credentials by Wednesday.').dataset.cited).toBe('true');
    expect(lineOf('The release moves to Friday.').dataset.cited).toBe('false');
    expect(scrolled).toHaveBeenLastCalledWith(lineOf('I will send the credentials by Wednesday.'));

    await click(screen.getByRole('button', { name: 'Topic Release date, 00:00–00:19' }));
    expect(lineOf('Good morning, let us plan the release.').dataset.cited).toBe('true');
    expect(lineOf('The release moves to Friday.').dataset.cited).toBe('true');
    expect(lineOf('I will send the credentials by Wednesday.').dataset.cited).toBe('false');
    expect(scrolled).toHaveBeenLastCalledWith(lineOf('Good morning, let us plan the release.'));
  });

  it("a summary whose sentences cite their lines: each sentence's time is a button that jumps to where it was said", async () => {
    const summarySentences = [
      { text: 'The release moves to Friday.', segmentIds: [seg(2)], startMs: 10_000 },
      { text: 'Ada sends the credentials.', segmentIds: [seg(3)], startMs: 35_000 },
    ];
    const panel = await openMeeting(planningMeeting({ summarySentences }));
    const summary = within(panel).getByRole('heading', { name: 'Summary' }).parentElement!;
    expect(summary.querySelector('p')?.textContent).toBe('The release moves to Friday. 00:10 Ada sends the credentials. 00:35');
    const transcript = screen.getByRole('list', { name: 'Transcript' });
    const lineOf = (text: string) => within(transcript).getByText(text).closest('li')!;

    const credentials = within(summary).getByRole('button', { name: 'Go to where this was said: 00:35' });
    // Reached with the keyboard like any button, and read by its purpose and time.
    credentials.focus();
    expect(document.activeElement).toBe(credentials);
    await click(credentials);
    expect(lineOf('I will send the credentials by Wednesday.').dataset.cited).toBe('true');
    expect(lineOf('The release moves to Friday.').dataset.cited).toBe('false');
    expect(scrolled).toHaveBeenLastCalledWith(lineOf('I will send the credentials by Wednesday.'));
    await click(within(summary).getByRole('button', { name: 'Go to where this was said: 00:10' }));
    expect(lineOf('The release moves to Friday.').dataset.cited).toBe('true');
    expect(lineOf('I will send the credentials by Wednesday.').dataset.cited).toBe('false');
  });

  it("a summary without cited sentences (older notes, an LLM's, one a person edited) reads as plain text", async () => {
    const panel = await openMeeting(planningMeeting({ summarySentences: null }));
    const summary = within(panel).getByRole('heading', { name: 'Summary' }).parentElement!;
    expect(summary.querySelector('p')?.textContent).toBe('The release moves to Friday. Ada sends the credentials.');
    expect(within(summary).queryByRole('button', { name: /Go to where this was said/ })).toBeNull();
  });

  it('Accept sends accepted and the answer ends the suggestion; ticking an action item done and undone is saved', async () => {
    const panel = await openMeeting(planningMeeting());
    await click(within(itemRow(panel, 'The release moves to Friday.')).getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(within(itemRow(panel, 'The release moves to Friday.')).queryByText('Suggestion')).toBeNull());
    expect(server.requests.find((r) => r.method === 'PATCH')?.authorization).toBe('Bearer token-1');

    await click(within(itemRow(panel, 'Send the credentials')).getByRole('checkbox', { name: 'Done' }));
    await waitFor(() =>
      expect(within(itemRow(panel, 'Send the credentials')).getByRole('checkbox', { name: 'Done' }).getAttribute('aria-checked')).toBe('true'),
    );
    await click(within(itemRow(panel, 'Send the credentials')).getByRole('checkbox', { name: 'Done' }));
    await waitFor(() =>
      expect(within(itemRow(panel, 'Send the credentials')).getByRole('checkbox', { name: 'Done' }).getAttribute('aria-checked')).toBe('false'),
    );

    expect(patches()).toEqual([
      { path: `/api/v1/meetings/${MEETING_ID}/notes/items/${item(1)}`, body: { accepted: true } },
      { path: `/api/v1/meetings/${MEETING_ID}/notes/items/${item(2)}`, body: { status: 'done' } },
      { path: `/api/v1/meetings/${MEETING_ID}/notes/items/${item(2)}`, body: { status: 'open' } },
    ]);
    expect(server.meeting().insights.find((i) => i.id === item(2))).toMatchObject({ status: 'open', suggested: false });
  });

  it('Dismiss hides an item; Show dismissed brings it back with Restore, which reopens it', async () => {
    const panel = await openMeeting(planningMeeting());
    await click(within(itemRow(panel, 'Ship on Friday')).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(within(panel).queryByText('Ship on Friday')).toBeNull());
    expect(within(panel).queryByRole('heading', { name: 'Decisions' })).toBeNull(); // its only item is gone

    await click(within(panel).getByRole('button', { name: 'Show dismissed (1)' }));
    const dismissed = itemRow(panel, 'Ship on Friday');
    expect(dismissed.dataset.status).toBe('dismissed');
    await click(within(dismissed).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(itemRow(panel, 'Ship on Friday').dataset.status).toBe('open'));
    expect(within(panel).queryByRole('button', { name: /Show dismissed|Hide dismissed/ })).toBeNull();
    expect(patches().map((p) => p.body)).toEqual([{ status: 'dismissed' }, { status: 'open' }]);
  });

  it('Edit sends only what changed (words, owner, due date) and shows the answer; a refused save keeps the editor open', async () => {
    const panel = await openMeeting(planningMeeting());
    await click(within(itemRow(panel, 'Send the credentials')).getByRole('button', { name: 'Edit' }));
    fireEvent.change(within(panel).getByLabelText('Text'), { target: { value: 'Send the production credentials' } });
    fireEvent.change(within(panel).getByLabelText('Owner'), { target: { value: 'Ada' } });

    server.failNext({ status: 500 });
    await click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Something went wrong on our side. Please try again.'));
    expect((within(panel).getByLabelText('Text') as HTMLTextAreaElement).value).toBe('Send the production credentials');

    fireEvent.change(within(panel).getByLabelText('Due date'), { target: { value: '2026-03-06' } });
    await click(within(panel).getByRole('button', { name: 'Save' }));
    const edited = await waitFor(() => itemRow(panel, 'Send the production credentials'));
    expect(within(edited).getByText('Owner: Ada')).toBeTruthy();
    expect(within(edited).getByText('Due by Fri, Mar 6 (Fri, Mar 6, 2026)')).toBeTruthy();
    expect(within(edited).queryByText('Suggestion')).toBeNull();
    expect(patches().at(-1)?.body).toEqual({ text: 'Send the production credentials', assignee: 'Ada', due: '2026-03-06' });

    // Clearing the owner makes it Unassigned again.
    await click(within(edited).getByRole('button', { name: 'Edit' }));
    fireEvent.change(within(panel).getByLabelText('Owner'), { target: { value: '  ' } });
    await click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(itemRow(panel, 'Send the production credentials')).getByText('Owner: Unassigned')).toBeTruthy());
    expect(patches().at(-1)?.body).toEqual({ assignee: null });
  });
});

describe('the notes state, in plain words', () => {
  it('opened at a moment (?t=, a link from the tracker or the register), the line said then is marked and scrolled to', async () => {
    await openMeeting(planningMeeting(), '?t=36000');
    const transcript = screen.getByRole('list', { name: 'Transcript' });
    const lineOf = (text: string) => within(transcript).getByText(text).closest('li')!;
    expect(lineOf('I will send the credentials by Wednesday.').dataset.cited).toBe('true');
    expect(lineOf('The release moves to Friday.').dataset.cited).toBe('false');
    expect(scrolled).toHaveBeenLastCalledWith(lineOf('I will send the credentials by Wednesday.'));
  });

  it('queued and running part N of M, with Regenerate notes held back while they are written', async () => {
    const panel = await openMeeting(planningMeeting({ notes: { ...READY, status: 'queued' } }));
    expect(within(panel).getByText('Notes are queued')).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'Regenerate notes' }).hasAttribute('disabled')).toBe(true);
    cleanup();
    const running = await openMeeting(planningMeeting({ notes: { ...READY, status: 'running', progress: { part: 2, parts: 5 } } }));
    expect(within(running).getByText('Writing notes: part 2 of 5')).toBeTruthy();
    expect(within(running).getByRole('progressbar', { name: 'Notes progress' })).toBeTruthy();
  });

  it('failed: the reason and Retry, which queues them again', async () => {
    const reason = 'The LLM at llm.example.com refused the key: check NOTES_LLM_API_KEY.';
    const panel = await openMeeting(planningMeeting({ notes: { ...READY, status: 'failed', failureReason: reason } }));
    const alert = within(panel).getByRole('alert');
    expect(alert.textContent).toContain(reason);
    await click(within(alert).getByRole('button', { name: 'Retry' }));
    await within(panel).findByText('Notes are queued');
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([`/api/v1/meetings/${MEETING_ID}/notes`]);
    expect(within(panel).queryByRole('alert')).toBeNull();
  });

  it('off: offers to make notes anyway', async () => {
    const panel = await openMeeting(planningMeeting({ summary: null, insights: [], notes: { ...READY, status: 'off', engine: null, generatedAt: null } }));
    expect(within(panel).getByText('Notes are turned off for this meeting.')).toBeTruthy();
    await click(within(panel).getByRole('button', { name: 'Make notes anyway' }));
    await within(panel).findByText('Notes are queued');
  });

  it('out of date, left-out items, parts of the local engine and the LLM credit', async () => {
    const panel = await openMeeting(planningMeeting({ notes: { ...READY, engine: 'llm', outOfDate: true, droppedUncited: 3, localFallbackParts: 2 } }));
    expect(within(panel).queryByText(/^Written without an AI model/)).toBeNull();
    expect(within(panel).getByText('Notes by an LLM')).toBeTruthy();
    expect(within(panel).getByText('The transcript changed since these notes were made')).toBeTruthy();
    expect(within(panel).getByText('3 items were left out because their citations did not check out')).toBeTruthy();
    expect(within(panel).getByText('The local engine covered 2 parts of this meeting that the LLM could not.')).toBeTruthy();
    await click(within(panel).getByRole('button', { name: 'Regenerate' }));
    await within(panel).findByText('Notes are queued');
    expect(within(panel).queryByText('The transcript changed since these notes were made')).toBeNull();
  });

  it('Regenerate notes on a meeting not yet transcribed is not offered; a refusal from the server is told', async () => {
    const panel = await openMeeting(planningMeeting({ status: 'processing', summary: null, insights: [], segments: [], notes: { ...READY, status: 'off' } }));
    expect(within(panel).getByText('Notes are written once the transcript is ready.')).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Regenerate notes' })).toBeNull();
    cleanup();
    const ready = await openMeeting(planningMeeting());
    server.failNext({
      status: 409,
      body: { error: { code: 'CONFLICT', message: 'Notes are written from the transcript: wait until the meeting is transcribed.' } },
    });
    await click(within(ready).getByRole('button', { name: 'Regenerate notes' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Notes are written from the transcript: wait until the meeting is transcribed.'));
    expect(within(ready).getByText('Notes by the local engine')).toBeTruthy(); // the notes shown stay
  });

  it('follows meeting.notes events from the realtime channel without a reload, and the newer of event and fetch wins', async () => {
    const panel = await openMeeting(planningMeeting());
    const heardAt = Date.now() + 1; // after the page fetched the meeting
    act(() =>
      notesStore.set({
        meetingId: MEETING_ID,
        event: { type: 'meeting.notes', meetingId: MEETING_ID, notes: { ...READY, status: 'running', progress: { part: 1, parts: 3 } } },
        receivedAt: heardAt,
      }),
    );
    expect(within(panel).getByText('Writing notes: part 1 of 3')).toBeTruthy();
    // Events about other meetings change nothing.
    act(() =>
      notesStore.set({
        meetingId: crypto.randomUUID(),
        event: { type: 'meeting.notes', meetingId: MEETING_ID, notes: { ...READY, status: 'failed', failureReason: 'elsewhere' } },
        receivedAt: heardAt,
      }),
    );
    expect(within(panel).queryByRole('alert')).toBeNull();
    act(() =>
      notesStore.set({
        meetingId: MEETING_ID,
        event: {
          type: 'meeting.notes',
          meetingId: MEETING_ID,
          notes: { ...READY, status: 'failed', failureReason: 'The notes could not be written: out of memory' },
        },
        receivedAt: heardAt,
      }),
    );
    expect(within(panel).getByRole('alert').textContent).toContain('The notes could not be written: out of memory');
    // Retry answered after the event shows the answer, not the older event.
    await waitFor(() => expect(Date.now()).toBeGreaterThan(heardAt));
    await click(within(panel).getByRole('button', { name: 'Retry' }));
    await within(panel).findByText('Notes are queued');
    expect(within(panel).queryByRole('alert')).toBeNull();
  });
});

describe('MeetingView with a recording', () => {
  it('an item, a topic span and a summary sentence seek the recording to where they start', () => {
    const onSeek = vi.fn();
    render(<MeetingView meeting={planningMeeting({ hasAudio: true })} currentMs={null} onSeek={onSeek} player={<div>player</div>} />);
    fireEvent.click(screen.getByRole('button', { name: /Send the credentials/ }));
    expect(onSeek).toHaveBeenLastCalledWith(35_000);
    fireEvent.click(screen.getByRole('button', { name: 'Topic Release date, 00:00–00:19' }));
    expect(onSeek).toHaveBeenLastCalledWith(0);
    cleanup();
    const summarySentences = [{ text: 'The release moves to Friday.', segmentIds: [seg(2)], startMs: 10_000 }];
    render(
      <MeetingView
        meeting={planningMeeting({ hasAudio: true, summary: 'The release moves to Friday.', summarySentences })}
        currentMs={null}
        onSeek={onSeek}
        player={<div>player</div>}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Go to where this was said: 00:10' }));
    expect(onSeek).toHaveBeenLastCalledWith(10_000);
    // Read-only (no actions): no buttons to change the notes.
    expect(screen.queryByRole('button', { name: 'Accept' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Regenerate notes' })).toBeNull();
  });
});
