import { queryOptions, useQuery } from '@tanstack/react-query';
import { statusEndpoints } from '#shared/contracts/status.ts';
import { api } from '#web/lib/api-client.ts';

export const statusKeys = { all: ['status'] as const };

/** The installation's transcription status, checked against the contract so the page never shows what it cannot read. */
export const statusOptions = () =>
  queryOptions({
    queryKey: statusKeys.all,
    queryFn: ({ signal }) => api(statusEndpoints.get, {}, { signal, badResponseMessage: 'The server answered with a status this page cannot read.' }),
    // The queue and a model being fetched change while the page is open.
    refetchInterval: 10_000,
  });

export const useStatus = () => useQuery(statusOptions());
