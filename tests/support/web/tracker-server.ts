import { vi } from 'vitest';
import type { MeetingRef } from '#shared/contracts/insights.ts';
import { NotesResponseSchema, UpdateNoteItemBodySchema } from '#shared/contracts/notes.ts';
import {
  ActionItemsQuerySchema,
  ActionItemsResponseSchema,
  AnswerDecisionLinkBodySchema,
  AnswerMentionBodySchema,
  DecisionSchema,
  DecisionsQuerySchema,
  DecisionsResponseSchema,
  TrackedActionItemSchema,
  UNASSIGNED,
  type Decision,
  type TrackedActionItem,
} from '#shared/contracts/tracker.ts';

type Failure = { status: number; body?: unknown } | 'offline';
type Request = { method: string; path: string; query: Record<string, string>; body: unknown };

let counter = 0;
/** A fresh id the contracts accept (a version-4 UUID shape). */
export const testId = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;

export const testMeeting = (title: string, startedAt: string): MeetingRef => ({ id: testId(), title, startedAt, isSample: false });

export function testItem(meeting: MeetingRef, fields: Partial<TrackedActionItem> & { text: string }): TrackedActionItem {
  return {
    id: testId(),
    assignee: null,
    due: null,
    dueText: null,
    status: 'open',
    startMs: 0,
    meeting,
    segmentIds: [testId()],
    overdue: false,
    mentions: [],
    ...fields,
  };
}

export function testDecision(meeting: MeetingRef, fields: Partial<Decision> & { text: string }): Decision {
  return { id: testId(), meeting, startMs: 0, segmentIds: [testId()], supersedes: [], supersededBy: [], suggestedSupersedes: [], ...fields };
}

/**
 * For jsdom tests: the tracker's endpoints (and the notes item update it ticks through) behind
 * `fetch`, answering as the real server does by its shared contract: bodies and queries parsed with
 * the contract's schemas, answers checked against them. The real server is covered by
 * tracker.int.test.ts and the browser test; here the screen is what is under test. Lists keep the
 * order they are given (the server's: newest meeting first).
 */
export function installTrackerServer(seed: { items?: TrackedActionItem[]; decisions?: Decision[] }) {
  const items = structuredClone(seed.items ?? []);
  const decisions = structuredClone(seed.decisions ?? []);
  const requests: Request[] = [];
  const failures: { failure: Failure; method: string | undefined }[] = [];

  const respond = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const invalid = () => respond(400, { error: { code: 'VALIDATION_FAILED', message: 'Invalid request' } });
  const notFound = (what: string) => respond(404, { error: { code: 'NOT_FOUND', message: `${what} not found` } });

  function actionItems(query: Record<string, string>) {
    const parsed = ActionItemsQuerySchema.safeParse(query);
    if (!parsed.success) return invalid();
    const { status, assignee, meetingId, page, pageSize } = parsed.data;
    const filtered = items.filter(
      (i) =>
        (assignee === undefined || (assignee === UNASSIGNED ? i.assignee === null : i.assignee === assignee)) && (!meetingId || i.meeting.id === meetingId),
    );
    const listed = filtered.filter((i) => (status === 'all' ? true : status === 'overdue' ? i.status === 'open' && i.overdue : i.status === status));
    const count = (s: TrackedActionItem['status']) => filtered.filter((i) => i.status === s).length;
    const meetings = new Map(items.map((i) => [i.meeting.id, i.meeting]));
    return respond(
      200,
      ActionItemsResponseSchema.parse({
        items: listed.slice((page - 1) * pageSize, page * pageSize),
        total: listed.length,
        page,
        pageSize,
        counts: {
          open: count('open'),
          done: count('done'),
          dismissed: count('dismissed'),
          overdue: filtered.filter((i) => i.status === 'open' && i.overdue).length,
        },
        assignees: [...new Set(items.flatMap((i) => (i.assignee ? [i.assignee] : [])))].sort((a, b) => a.localeCompare(b)),
        meetings: [...meetings.values()],
      }),
    );
  }

  const setStatus = (item: TrackedActionItem, status: TrackedActionItem['status']) => {
    item.status = status;
    if (status !== 'open') item.overdue = false;
  };

  function updateItem(meetingId: string, itemId: string, body: unknown) {
    const parsed = UpdateNoteItemBodySchema.safeParse(body);
    if (!parsed.success) return invalid();
    const item = items.find((i) => i.id === itemId && i.meeting.id === meetingId);
    if (!item) return notFound('Item');
    if (parsed.data.status) setStatus(item, parsed.data.status);
    return respond(
      200,
      NotesResponseSchema.parse({
        summary: null,
        insights: [],
        notes: {
          status: 'ready',
          engine: 'local',
          failureReason: null,
          droppedUncited: 0,
          localFallbackParts: 0,
          progress: null,
          outOfDate: false,
          generatedAt: null,
        },
      }),
    );
  }

  function answerMention(itemId: string, mentionId: string, body: unknown) {
    const parsed = AnswerMentionBodySchema.safeParse(body);
    if (!parsed.success) return invalid();
    const item = items.find((i) => i.id === itemId);
    const mention = item?.mentions.find((m) => m.id === mentionId);
    if (!item || !mention) return notFound('Mention');
    if (parsed.data.resolution === 'done') setStatus(item, 'done');
    else if (item.status !== 'dismissed') setStatus(item, 'open');
    mention.resolution = parsed.data.resolution;
    return respond(200, TrackedActionItemSchema.parse(item));
  }

  function decisionRegister(query: Record<string, string>) {
    const parsed = DecisionsQuerySchema.safeParse(query);
    if (!parsed.success) return invalid();
    const { q, page, pageSize } = parsed.data;
    const words = (q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const listed = decisions.filter((d) => words.every((w) => d.text.toLowerCase().includes(w) || d.meeting.title.toLowerCase().includes(w)));
    return respond(200, DecisionsResponseSchema.parse({ items: listed.slice((page - 1) * pageSize, page * pageSize), total: listed.length, page, pageSize }));
  }

  const refOf = (d: Decision) => ({ id: d.id, text: d.text, meeting: d.meeting, startMs: d.startMs });

  function answerLink(linkId: string, body: unknown) {
    const parsed = AnswerDecisionLinkBodySchema.safeParse(body);
    if (!parsed.success) return invalid();
    const later = decisions.find((d) => d.suggestedSupersedes.some((l) => l.linkId === linkId));
    const link = later?.suggestedSupersedes.find((l) => l.linkId === linkId);
    if (!later || !link) return notFound('Decision link');
    later.suggestedSupersedes = later.suggestedSupersedes.filter((l) => l.linkId !== linkId);
    if (parsed.data.status === 'confirmed') {
      later.supersedes.push(link);
      decisions.find((d) => d.id === link.decision.id)?.supersededBy.push({ linkId, decision: refOf(later) });
    }
    return respond(200, DecisionSchema.parse(later));
  }

  function route(method: string, path: string, query: Record<string, string>, body: unknown): Response {
    if (method === 'GET' && path === '/api/v1/action-items') return actionItems(query);
    if (method === 'GET' && path === '/api/v1/decisions') return decisionRegister(query);
    let match = /^\/api\/v1\/meetings\/([^/]+)\/notes\/items\/([^/]+)$/.exec(path);
    if (method === 'PATCH' && match) return updateItem(match[1]!, match[2]!, body);
    match = /^\/api\/v1\/action-items\/([^/]+)\/mentions\/([^/]+)$/.exec(path);
    if (method === 'POST' && match) return answerMention(match[1]!, match[2]!, body);
    match = /^\/api\/v1\/decisions\/links\/([^/]+)$/.exec(path);
    if (method === 'PATCH' && match) return answerLink(match[1]!, body);
    return respond(404, { error: { code: 'NOT_FOUND', message: `No route for ${method} ${path}` } });
  }

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init.method ?? 'GET';
    const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const query = Object.fromEntries(url.searchParams);
    requests.push({ method, path: url.pathname, query, body });
    const index = failures.findIndex((f) => f.method === undefined || f.method === method);
    const failure = index === -1 ? undefined : failures.splice(index, 1)[0]?.failure;
    if (failure === 'offline') throw new TypeError('Failed to fetch');
    if (failure)
      return respond(failure.status, failure.body ?? { error: { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' } });
    return route(method, url.pathname, query, body);
  });
  vi.stubGlobal('fetch', fetchMock);

  return {
    requests,
    /** The requests other than reads. */
    writes: () => requests.filter((r) => r.method !== 'GET'),
    items,
    decisions,
    /** The next request (of this method, when given) fails: an error status with a body, or no connection at all. */
    failNext: (failure: Failure, method?: 'GET' | 'POST' | 'PATCH') => failures.push({ failure, method }),
  };
}
