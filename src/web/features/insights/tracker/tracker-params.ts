import { z } from 'zod/mini';
import { TrackerStatusSchema, type ActionItemsQuery, type DecisionsQuery, type TrackerStatus } from '#shared/contracts/tracker.ts';

/**
 * The Action Items and Decisions tabs keep their filters in the URL (beside `?tab=`), so a reload,
 * the back button or a pasted link shows the same list. What someone typed into the address bar is
 * read leniently: anything invalid falls back to its default instead of failing the page.
 */
const page = z.catch(z.coerce.number().check(z.int(), z.gte(1), z.lte(10_000)), 1);
const optionalText = (max: number) =>
  z.catch(
    z.pipe(
      z.optional(z.string().check(z.trim(), z.maxLength(max))),
      z.transform((value) => value || undefined),
    ),
    undefined,
  );

const TrackerParamsSchema = z.object({
  status: z.catch(TrackerStatusSchema, 'open'),
  /** An owner's exact name, or `unassigned`. */
  owner: optionalText(100),
  meeting: z.catch(z.optional(z.uuid()), undefined),
  page,
});
export type TrackerParams = z.infer<typeof TrackerParamsSchema>;

const DecisionParamsSchema = z.object({
  q: z.pipe(
    optionalText(200),
    z.transform((q) => q ?? ''),
  ),
  page,
});
export type DecisionParams = z.infer<typeof DecisionParamsSchema>;

export const TRACKER_PAGE_SIZE = 25;
export const DEFAULT_TRACKER_STATUS: TrackerStatus = 'open';

export const readTrackerParams = (search: URLSearchParams): TrackerParams => TrackerParamsSchema.parse(Object.fromEntries(search));

export const readDecisionParams = (search: URLSearchParams): DecisionParams => DecisionParamsSchema.parse(Object.fromEntries(search));

/** The URL form, keeping the other parameters (the tab) and leaving defaults out. */
export function writeTrackerParams(current: URLSearchParams, params: TrackerParams): URLSearchParams {
  const search = new URLSearchParams(current);
  for (const key of ['status', 'owner', 'meeting', 'page']) search.delete(key);
  if (params.status !== DEFAULT_TRACKER_STATUS) search.set('status', params.status);
  if (params.owner) search.set('owner', params.owner);
  if (params.meeting) search.set('meeting', params.meeting);
  if (params.page > 1) search.set('page', String(params.page));
  return search;
}

export function writeDecisionParams(current: URLSearchParams, params: DecisionParams): URLSearchParams {
  const search = new URLSearchParams(current);
  for (const key of ['q', 'page']) search.delete(key);
  if (params.q) search.set('q', params.q);
  if (params.page > 1) search.set('page', String(params.page));
  return search;
}

export const toActionItemsQuery = (params: TrackerParams): Partial<ActionItemsQuery> => ({
  status: params.status,
  assignee: params.owner,
  meetingId: params.meeting,
  page: params.page,
  pageSize: TRACKER_PAGE_SIZE,
});

export const toDecisionsQuery = (params: DecisionParams): Partial<DecisionsQuery> => ({
  ...(params.q ? { q: params.q } : {}),
  page: params.page,
  pageSize: TRACKER_PAGE_SIZE,
});
