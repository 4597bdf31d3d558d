import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreatedShareLink, ShareLinkList, SharedMeeting } from '#shared/contracts/sharing.ts';
import type { ApiErrorBody } from '#shared/errors.ts';
import { api, ApiError } from '#web/lib/api-client.ts';

/**
 * Share links: the owner's hooks (through the authenticated api client) and the public view's
 * fetcher, which sends no token at all so it works for anyone holding the link.
 */
export const shareKeys = {
  // Under 'meetings' so anything that invalidates meetings (a delete) refreshes these too.
  links: (meetingId: string) => ['meetings', 'share-links', meetingId] as const,
  shared: (token: string) => ['shared-meeting', token] as const,
};

export const useShareLinks = (meetingId: string, enabled = true) =>
  useQuery({
    queryKey: shareKeys.links(meetingId),
    queryFn: ({ signal }) => api<ShareLinkList>(`/meetings/${meetingId}/share`, { signal }),
    enabled,
  });

export function useCreateShareLink(meetingId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<CreatedShareLink>(`/meetings/${meetingId}/share`, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: shareKeys.links(meetingId) }),
  });
}

export function useRevokeShareLink(meetingId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (shareId: string) => api<{ revoked: true }>(`/meetings/${meetingId}/share/${shareId}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: shareKeys.links(meetingId) }),
  });
}

async function fetchSharedMeeting(token: string, signal: AbortSignal): Promise<SharedMeeting> {
  let response: Response;
  try {
    response = await fetch(`/api/v1/shared/${encodeURIComponent(token)}`, { signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'NETWORK', 'Parley cannot reach its server. Check your connection and try again.');
  }
  const body = (await response.json().catch(() => undefined)) as unknown;
  if (!response.ok) {
    const error = (body as Partial<ApiErrorBody> | undefined)?.error;
    throw new ApiError(response.status, error?.code ?? 'UNKNOWN', error?.message ?? `Request failed (${response.status})`);
  }
  return body as SharedMeeting;
}

/** A missing or revoked link (404, or 400 for a malformed token) is an answer, not a hiccup: no retry. */
export const isGoneLink = (error: unknown): boolean => error instanceof ApiError && (error.status === 404 || error.status === 400);

export const sharedMeetingOptions = (token: string) =>
  queryOptions({
    queryKey: shareKeys.shared(token),
    queryFn: ({ signal }) => fetchSharedMeeting(token, signal),
    retry: (failures, error) => !isGoneLink(error) && failures < 2,
    staleTime: 60_000,
  });
