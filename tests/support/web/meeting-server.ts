import { vi } from 'vitest';
import type { MeetingDetail } from '#shared/contracts/meetings.ts';
import { UpdateNoteItemBodySchema, type Insight, type NotesResponse, type NotesState } from '#shared/contracts/notes.ts';

type Failure = { status: number; body?: unknown };

/**
 * For jsdom tests: one meeting behind `fetch` (GET /api/v1/meetings/:id) with its notes endpoints,
 * answering as the real server does (its shared contract: strict item bodies, any change to an item
 * ends its being a suggestion, Regenerate queues the notes and needs a transcript, 404 for another
 * id). The real server is covered by notes.int.test.ts and the browser test tests/e2e/notes.spec.ts;
 * here the screen is what is under test.
 */
export function installMeetingServer(initial: MeetingDetail) {
  let meeting = structuredClone(initial);
  const failures: Failure[] = [];
  const requests: { method: string; path: string; body: unknown; authorization: string | null }[] = [];

  const respond = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const error = (status: number, code: string, message: string) => respond(status, { error: { code, message } });
  const notesAnswer = (): NotesResponse => ({ summary: meeting.summary, insights: meeting.insights, notes: meeting.notes });
  const base = `/api/v1/meetings/${meeting.id}`;
  // The server words a date a person sets relative to the meeting ("by Fri, Nov 22"); same year here.
  const dueWords = (due: string) =>
    `by ${new Date(`${due}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' })}`;

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const path = String(input);
    const method = init.method ?? 'GET';
    const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    // The page's calendar part (a meeting recorded from no event): answered aside, so the requests and
    // failures a test plans are the meeting's and its notes' only.
    if (method === 'GET' && path === `${base}/calendar-event`) return respond(200, { event: null, earlier: [] });
    requests.push({ method, path, body, authorization: new Headers(init.headers).get('authorization') });
    const failure = failures.shift();
    if (failure)
      return respond(failure.status, failure.body ?? { error: { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' } });
    if (method === 'GET' && path === base) return respond(200, meeting);
    if (method === 'POST' && path === `${base}/notes`) {
      if (meeting.status !== 'ready') return error(409, 'CONFLICT', 'Notes are written from the transcript: wait until the meeting is transcribed.');
      meeting = { ...meeting, notes: { ...meeting.notes, status: 'queued', failureReason: null, progress: null } };
      return respond(202, notesAnswer());
    }
    const itemId = new RegExp(`^${base}/notes/items/([0-9a-f-]{36})$`).exec(path)?.[1];
    if (method === 'PATCH' && itemId) {
      const change = UpdateNoteItemBodySchema.safeParse(body);
      if (!change.success) return error(400, 'VALIDATION_FAILED', 'Invalid request');
      if (!meeting.insights.some((item) => item.id === itemId)) return error(404, 'NOT_FOUND', 'Note not found');
      const { accepted: _accepted, ...fields } = change.data;
      meeting = {
        ...meeting,
        insights: meeting.insights.map((item) =>
          item.id === itemId
            ? { ...item, ...fields, ...(fields.due !== undefined ? { dueText: fields.due === null ? null : dueWords(fields.due) } : {}), suggested: false }
            : item,
        ),
      };
      return respond(200, notesAnswer());
    }
    return error(404, 'NOT_FOUND', `No route for ${method} ${path}`);
  });
  vi.stubGlobal('fetch', fetchMock);

  return {
    requests,
    /** The meeting as the server has it now. */
    meeting: () => meeting,
    /** The notes move on without the page asking (the job ran): what the next GET answers. */
    setNotes: (notes: Partial<NotesState>, insights?: Insight[], summary?: string | null) => {
      meeting = {
        ...meeting,
        notes: { ...meeting.notes, ...notes },
        ...(insights ? { insights } : {}),
        ...(summary !== undefined ? { summary } : {}),
      };
    },
    /** The next request fails with this status (and body). */
    failNext: (failure: Failure) => failures.push(failure),
  };
}
