import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Toaster } from '#web/components/ui/sonner.tsx';
import { TooltipProvider } from '#web/components/ui/tooltip.tsx';
import { loadSupabase } from '#web/lib/supabase.ts';
import { AuthProvider } from '#web/lib/auth/auth-provider.tsx';

/** Everything the whole app shares: server-state cache, session, tooltips and toasts. */
export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false } } }));
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider loadClient={loadSupabase}>
        <TooltipProvider>
          {children}
          <Toaster position="top-right" richColors closeButton />
        </TooltipProvider>
      </AuthProvider>
    </QueryClientProvider>
  );
}
