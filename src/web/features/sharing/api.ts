import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { shareEndpoints } from '#shared/contracts/sharing.ts';
import { api } from '#web/lib/api-client.ts';
import { ApiError } from '#web/lib/api-error.ts';
import { MEETING_DATA_KEY } from '#web/lib/query-keys.ts';

/**
 * Share links: the owner's list, create and revoke, and the public view of a link, which the
 * contract marks public so it is fetched without a token and works for anyone holding the link.
 */
export const shareKeys = {
  // Under the meetings root so anything that invalidates meetings (a delete) refreshes these too.
  links: (meetingId: string) => [...MEETING_DATA_KEY, 'share-links', meetingId] as const,
  shared: (token: string) => ['shared-meeting', token] as const,
};

export const shareLinksOptions = (meetingId: string) =>
  queryOptions({ queryKey: shareKeys.links(meetingId), queryFn: ({ signal }) => api(shareEndpoints.list, { params: { id: meetingId } }, { signal }) });

export const useShareLinks = (meetingId: string, enabled = true) => useQuery({ ...shareLinksOptions(meetingId), enabled });

export function useCreateShareLink(meetingId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api(shareEndpoints.create, { params: { id: meetingId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: shareKeys.links(meetingId) }),
  });
}

export function useRevokeShareLink(meetingId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (shareId: string) => api(shareEndpoints.revoke, { params: { id: meetingId, shareId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: shareKeys.links(meetingId) }),
  });
}

/** A missing or revoked link (404, or 400 for a malformed token) is an answer, not a hiccup: no retry. */
export const isGoneLink = (error: unknown): boolean => error instanceof ApiError && (error.status === 404 || error.status === 400);

export const sharedMeetingOptions = (token: string) =>
  queryOptions({
    queryKey: shareKeys.shared(token),
    queryFn: ({ signal }) => api(shareEndpoints.shared, { params: { token } }, { signal }),
    retry: (failures, error) => !isGoneLink(error) && failures < 2,
    staleTime: 60_000,
  });
