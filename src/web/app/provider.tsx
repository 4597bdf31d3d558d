import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useCallback, useState, type ReactNode } from 'react';
import { forgetRecordingsOf } from '#web/features/record/capture/recording-store.ts';
import { notesStore, progressStore } from '#web/lib/realtime/realtime-store.ts';
import { Toaster } from '#web/components/ui/sonner.tsx';
import { TooltipProvider } from '#web/components/ui/tooltip.tsx';
import { loadSupabase } from '#web/lib/supabase.ts';
import { AuthProvider } from '#web/lib/auth/auth-provider.tsx';

/**
 * Everything the whole app shares: server-state cache, session, tooltips and toasts. When the
 * person changes, everything cached of the last one goes before the next one's first render (the
 * server answers, the realtime events; the socket follows the token); a sign-out also forgets the
 * recordings this browser kept of them (issue 11).
 */
export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false } } }));
  const forgetCached = useCallback(() => {
    queryClient.clear();
    progressStore.clear();
    notesStore.clear();
  }, [queryClient]);
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider loadClient={loadSupabase} onUserChange={forgetCached} onSignOut={forgetRecordingsOf}>
        <TooltipProvider>
          {children}
          <Toaster position="top-right" richColors closeButton />
        </TooltipProvider>
      </AuthProvider>
    </QueryClientProvider>
  );
}
