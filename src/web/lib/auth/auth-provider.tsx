import type { Session, SupabaseClient } from '@supabase/supabase-js';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { AuthContext, type AuthContextValue } from './auth-context.ts';
import { paths } from '#web/app/paths.ts';

/**
 * Tracks the Supabase session (spec §4): loading starts true and turns false after the first
 * session lookup or the first auth event; every event replaces session and user. The client
 * refreshes tokens itself. The client is loaded on demand (see lib/supabase.ts).
 */
export function AuthProvider({ loadClient, children }: { loadClient: () => Promise<SupabaseClient>; children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(null);
  const [loading, setLoading] = useState(true);
  const [signedOutByUser, setSignedOutByUser] = useState(false);
  const clearSignedOutByUser = useCallback(() => setSignedOutByUser(false), []);

  useEffect(() => {
    let active = true;
    let unsubscribe = () => {};
    void loadClient().then((client) => {
      if (!active) return;
      const { data } = client.auth.onAuthStateChange((_event, next) => {
        if (!active) return;
        setSession(next);
        setLoading(false);
        if (next) setSignedOutByUser(false);
      });
      unsubscribe = () => data.subscription.unsubscribe();
      void client.auth.getSession().then(({ data: current }) => {
        if (!active) return;
        setSession(current.session);
        setLoading(false);
      });
    });
    return () => {
      active = false;
      unsubscribe();
    };
  }, [loadClient]);

  const value = useMemo<AuthContextValue>(
    () => ({
      session,
      user: session?.user ?? null,
      loading,
      signedOutByUser,
      clearSignedOutByUser,
      signUp: async ({ email, password, fullName }) => {
        const client = await loadClient();
        const { data, error } = await client.auth.signUp({
          email,
          password,
          options: { data: { full_name: fullName }, emailRedirectTo: `${window.location.origin}${paths.dashboard.href()}` },
        });
        return { error, session: data.session };
      },
      signIn: async ({ email, password }) => {
        const { error } = await (await loadClient()).auth.signInWithPassword({ email, password });
        return { error };
      },
      signOut: async () => {
        setSignedOutByUser(true);
        const { error } = await (await loadClient()).auth.signOut();
        if (error) setSignedOutByUser(false);
        return { error };
      },
    }),
    [loadClient, session, loading, signedOutByUser, clearSignedOutByUser],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
