import { useQuery } from '@tanstack/react-query';
import { StatusResponseSchema, type StatusResponse } from '#shared/contracts/status.ts';
import { api, ApiError } from '#web/lib/api-client.ts';

/** GET /api/v1/status, checked against the contract so the page never shows what it cannot read. */
export const useStatus = () =>
  useQuery({
    queryKey: ['status'],
    queryFn: async ({ signal }): Promise<StatusResponse> => {
      const parsed = StatusResponseSchema.safeParse(await api<unknown>('/status', { signal }));
      if (!parsed.success) throw new ApiError(200, 'UNKNOWN', 'The server answered with a status this page cannot read.');
      return parsed.data;
    },
    // The queue and a model being fetched change while the page is open.
    refetchInterval: 10_000,
  });
