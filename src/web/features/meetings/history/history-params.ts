import { MEETING_STATUSES, type MeetingListQuery, type MeetingStatus } from '#shared/contracts/meetings.ts';

/**
 * /history keeps its whole state in the URL (?q=&from=&to=&status=&participant=&page=&pageSize=)
 * so a reload, the back button or a pasted link shows the same list. Values a person may have
 * typed into the address bar are checked here; anything invalid falls back to its default.
 */
export type HistoryParams = {
  q: string;
  from?: string;
  to?: string;
  status?: MeetingStatus;
  participant?: string;
  page: number;
  pageSize: number;
};

/** Six cards a page: two rows of the spec's three-column grid. */
export const DEFAULT_PAGE_SIZE = 6;
const MAX_PAGE_SIZE = 100;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const positiveInt = (value: string | null, fallback: number, max: number): number => {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, max) : fallback;
};
const text = (value: string | null, max: number): string | undefined => {
  const trimmed = value?.trim().slice(0, max);
  return trimmed ? trimmed : undefined;
};
const date = (value: string | null): string | undefined => (value && DATE.test(value) && !Number.isNaN(Date.parse(value)) ? value : undefined);

export function readHistoryParams(search: URLSearchParams): HistoryParams {
  const status = search.get('status');
  const params: HistoryParams = {
    q: text(search.get('q'), 200) ?? '',
    page: positiveInt(search.get('page'), 1, 10_000),
    pageSize: positiveInt(search.get('pageSize'), DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
  };
  const from = date(search.get('from'));
  const to = date(search.get('to'));
  const participant = text(search.get('participant'), 100);
  if (from) params.from = from;
  if (to) params.to = to;
  if (status && (MEETING_STATUSES as readonly string[]).includes(status)) params.status = status as MeetingStatus;
  if (participant) params.participant = participant;
  return params;
}

/** The URL form: defaults left out so the plain /history stays plain. */
export function writeHistoryParams(params: HistoryParams): URLSearchParams {
  const search = new URLSearchParams();
  if (params.q) search.set('q', params.q);
  if (params.from) search.set('from', params.from);
  if (params.to) search.set('to', params.to);
  if (params.status) search.set('status', params.status);
  if (params.participant) search.set('participant', params.participant);
  if (params.page > 1) search.set('page', String(params.page));
  if (params.pageSize !== DEFAULT_PAGE_SIZE) search.set('pageSize', String(params.pageSize));
  return search;
}

export function toListQuery(params: HistoryParams): Partial<MeetingListQuery> {
  const { q, from, to, status, participant, page, pageSize } = params;
  return { ...(q ? { q } : {}), from, to, status, participant, page, pageSize };
}

export const hasFilters = (params: HistoryParams): boolean => Boolean(params.q || params.from || params.to || params.status || params.participant);

export const clearFilters = (params: HistoryParams): HistoryParams => ({ q: '', page: 1, pageSize: params.pageSize });
