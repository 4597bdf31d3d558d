import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { useAuth } from '#web/lib/auth/use-auth.ts';
import { registerQueryCache } from './query-cache.ts';

/**
 * One server-state cache for the whole visit: it lives in this module, not in the layout, so leaving
 * the pages below (say for the landing page) and coming back finds the same cache. The root
 * (provider.tsx) clears it when the person changes.
 */
const queryClient = registerQueryCache(new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false } } }));

/**
 * The provider only the pages that read the API need: react-query's cache. A lazy layout route
 * (router.tsx), so the public site's pages do not download it.
 */
export function Component() {
  // Their calls carry the session's token, and their actions toast: asking for the session starts
  // both (provider.tsx), for the demo and a shared meeting as for the signed-in pages.
  useAuth();
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
