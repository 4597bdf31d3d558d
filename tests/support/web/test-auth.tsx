import type { User } from '@supabase/supabase-js';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { AuthContext, type AuthContextValue } from '#web/lib/auth/auth-context.ts';

/** For jsdom tests: a signed-in person in the session context, inside a router (at `initialEntries`) and a fresh query cache. */
export function testUser(metadata: Record<string, unknown> = { full_name: 'Ada Lovelace' }): User {
  return { id: 'user-1', email: 'ada@example.com', user_metadata: metadata } as unknown as User;
}

/** `initialEntries`: where the router starts (e.g. a page with its URL query). */
export function SignedIn({ user = testUser(), initialEntries, children }: { user?: User; initialEntries?: string[]; children: ReactNode }) {
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } }));
  const value: AuthContextValue = {
    user,
    session: null,
    loading: false,
    signedOutByUser: false,
    clearSignedOutByUser: () => {},
    mfaRequired: false,
    signUp: vi.fn(async () => ({ error: null, session: null })),
    signIn: vi.fn(async () => ({ error: null, mfaRequired: false })),
    verifyMfa: async () => ({ error: null }),
    signOut: vi.fn(async () => ({ error: null })),
  };
  return (
    <QueryClientProvider client={queryClient}>
      <AuthContext.Provider value={value}>
        <MemoryRouter initialEntries={initialEntries}>{children}</MemoryRouter>
      </AuthContext.Provider>
    </QueryClientProvider>
  );
}
