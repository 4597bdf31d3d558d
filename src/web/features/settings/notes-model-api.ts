import { useQuery } from '@tanstack/react-query';
import { statusEndpoints } from '#shared/contracts/status.ts';
import { api } from '#web/lib/api-client.ts';

/** The installation's notes engines, from its status: which writes meeting notes now, and the model when one is connected. */
export const useNotesEngines = () =>
  useQuery({
    queryKey: ['status'],
    queryFn: ({ signal }) => api(statusEndpoints.get, {}, { signal, badResponseMessage: 'The server answered with a status this page cannot read.' }),
    select: (status) => status.notes,
  });
