import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '#web/lib/toast.ts';
import { insightsEndpoints } from '#shared/contracts/insights.ts';
import { notesEndpoints } from '#shared/contracts/notes.ts';
import { trackerEndpoints, type ActionItemsQuery, type DecisionLinkAnswer, type DecisionsQuery, type MentionResolution } from '#shared/contracts/tracker.ts';
import { api } from '#web/lib/api-client.ts';
import { MEETING_DATA_KEY } from '#web/lib/query-keys.ts';

// Under the meetings root so any change to a meeting (rename, edit, delete, new notes) refreshes them too.
export const insightKeys = {
  insights: () => [...MEETING_DATA_KEY, 'insights'] as const,
  analytics: (weeks: number, tzOffset: number) => [...MEETING_DATA_KEY, 'analytics', weeks, tzOffset] as const,
  actionItems: (query: Partial<ActionItemsQuery>) => [...MEETING_DATA_KEY, 'action-items', query] as const,
  decisions: () => [...MEETING_DATA_KEY, 'decisions'] as const,
  decisionPage: (query: Partial<DecisionsQuery>) => [...MEETING_DATA_KEY, 'decisions', query] as const,
};

export const insightsOptions = () =>
  queryOptions({ queryKey: insightKeys.insights(), queryFn: ({ signal }) => api(insightsEndpoints.insights, {}, { signal }) });

/** `tzOffset`: the browser's Date#getTimezoneOffset(), so weeks start on the person's Monday. */
export const analyticsOptions = (weeks: number, tzOffset: number) =>
  queryOptions({
    queryKey: insightKeys.analytics(weeks, tzOffset),
    queryFn: ({ signal }) => api(insightsEndpoints.analytics, { query: { weeks, tzOffset } }, { signal }),
  });

// Lists keep showing the previous page while a new filter or page loads, instead of a skeleton each time.
export const actionItemsOptions = (query: Partial<ActionItemsQuery>) =>
  queryOptions({
    queryKey: insightKeys.actionItems(query),
    queryFn: ({ signal }) => api(trackerEndpoints.actionItems, { query }, { signal }),
    placeholderData: keepPreviousData,
  });

export const decisionsOptions = (query: Partial<DecisionsQuery>) =>
  queryOptions({
    queryKey: insightKeys.decisionPage(query),
    queryFn: ({ signal }) => api(trackerEndpoints.decisions, { query }, { signal }),
    placeholderData: keepPreviousData,
  });

export const useInsights = () => useQuery(insightsOptions());

export const useAnalytics = (weeks: number) => useQuery(analyticsOptions(weeks, new Date().getTimezoneOffset()));

export const useActionItems = (query: Partial<ActionItemsQuery>) => useQuery(actionItemsOptions(query));

export const useDecisions = (query: Partial<DecisionsQuery>) => useQuery(decisionsOptions(query));

/** Which item, in which meeting: every tracked item carries its meeting, which the notes endpoint needs. */
type ItemRef = { itemId: string; meetingId: string };
type ItemTick = ItemRef & { status: 'open' | 'done' };

// Toasts are said here, not by the row that asked: a ticked item may leave the list (and its row
// unmount) before the refetch settles, and a row's own callbacks would then never run.

/**
 * Ticks an action item done (or opens it again) through the meeting's own notes endpoint, with
 * Undo. The item belongs to a meeting's notes, so everything built from meetings is refreshed:
 * the tracker, the meeting page, the dashboard's counts.
 */
export function useSetItemStatus() {
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: ({ itemId, meetingId, status }: ItemTick) => api(notesEndpoints.updateItem, { params: { id: meetingId, itemId }, body: { status } }),
    onSuccess: (_, tick) => {
      const undo: ItemTick = { ...tick, status: tick.status === 'done' ? 'open' : 'done' };
      toast.success(tick.status === 'done' ? 'Action item done' : 'Action item open again', {
        action: { label: 'Undo', onClick: () => mutation.mutate(undo) },
      });
      return client.invalidateQueries({ queryKey: MEETING_DATA_KEY });
    },
    onError: (error) => toast.error(error.message),
  });
  return mutation;
}

/** "Done or slipped?" for a later meeting's mention of an open item. */
export function useAnswerMention() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ itemId, mentionId, resolution }: { itemId: string; mentionId: string; resolution: MentionResolution }) =>
      api(trackerEndpoints.answerMention, { params: { itemId, mentionId }, body: { resolution } }),
    onSuccess: (_, { resolution }) => {
      toast.success(resolution === 'done' ? 'Action item done' : 'Kept open: it slipped');
      return client.invalidateQueries({ queryKey: MEETING_DATA_KEY });
    },
    onError: (error) => toast.error(error.message),
  });
}

/** Confirms ("Supersedes") or rejects ("Not related") that a later decision replaces an earlier one; both ends change. */
export function useAnswerDecisionLink() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ linkId, status }: { linkId: string; status: DecisionLinkAnswer }) =>
      api(trackerEndpoints.answerDecisionLink, { params: { linkId }, body: { status } }),
    onSuccess: (_, { status }) => {
      toast.success(status === 'confirmed' ? 'Marked as superseding the earlier decision' : 'Marked as not related');
      return client.invalidateQueries({ queryKey: insightKeys.decisions() });
    },
    onError: (error) => toast.error(error.message),
  });
}
