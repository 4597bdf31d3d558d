import type { Session } from '@supabase/auth-js';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { AuthContext, AuthStartContext, type AuthContextValue, type AuthStart } from './auth-context.ts';
import { peekReturnTo } from './return-to.ts';
import { paths } from '#web/app/paths.ts';
import type { SupabaseAuth } from '#web/lib/supabase.ts';

/**
 * Tracks the Supabase session (spec §4): loading starts true and turns false after the first
 * session lookup or the first auth event; every event replaces session and user. The client
 * refreshes tokens itself. The client is loaded on demand (see lib/supabase.ts): once a page asks for
 * the session (useAuth), so a visit to the public site alone never loads it.
 */
export function AuthProvider({
  loadClient,
  onUserChange,
  onSignOut,
  children,
}: {
  loadClient: () => Promise<SupabaseAuth>;
  /**
   * The person changed (signed out, or another account signed in, e.g. from another tab): called
   * with the one who left, before anything renders for the next, so their cached data can be dropped.
   */
  onUserChange?: (previousUserId: string) => void;
  /** A deliberate sign-out, before the session ends: what the browser keeps of the person goes. */
  onSignOut?: (userId: string) => Promise<void>;
  children: ReactNode;
}) {
  const [session, setSession] = useState<Session | null>(null);
  const [loading, setLoading] = useState(true);
  const [signedOutByUser, setSignedOutByUser] = useState(false);
  const [mfaRequired, setMfaRequired] = useState(false);
  const clearSignedOutByUser = useCallback(() => setSignedOutByUser(false), []);
  const [started, setStarted] = useState(false);
  const start = useCallback(() => setStarted(true), []);
  const startValue = useMemo<AuthStart>(() => ({ started, start }), [started, start]);
  // Who the published session belongs to, and the latest hooks (the effect below runs once per client).
  const userIdRef = useRef<string | undefined>(undefined);
  const onUserChangeRef = useRef(onUserChange);
  useEffect(() => {
    onUserChangeRef.current = onUserChange;
  }, [onUserChange]);

  useEffect(() => {
    if (!started) return;
    let active = true;
    let unsubscribe = () => {};
    // Each session is published together with its assurance level, so no page sees a session whose
    // MFA state is unknown; a later session overtakes an earlier one still being looked at.
    let latest = 0;
    const settle = (client: SupabaseAuth, next: Session | null) => {
      const turn = ++latest;
      // A failed look (it reads only the stored session) counts as no MFA due: the server still refuses an aal1 session.
      const mfaDue = next ? needsMfa(client).catch(() => false) : Promise.resolve(false);
      void mfaDue.then((required) => {
        if (!active || turn !== latest) return;
        const previous = userIdRef.current;
        userIdRef.current = next?.user.id;
        if (previous !== undefined && previous !== next?.user.id) onUserChangeRef.current?.(previous);
        setSession(next);
        setMfaRequired(required);
        setLoading(false);
        if (next) setSignedOutByUser(false);
      });
    };
    void loadClient().then((client) => {
      if (!active) return;
      // Not awaited in the callback: the auth client awaits its subscribers while it notifies them, and needsMfa
      // reads the session, which during a refresh would wait for that very notification to end.
      const { data } = client.auth.onAuthStateChange((_event, next) => settle(client, next));
      unsubscribe = () => data.subscription.unsubscribe();
      void client.auth.getSession().then(({ data: current }) => {
        if (active && latest === 0) settle(client, current.session);
      });
    });
    return () => {
      active = false;
      unsubscribe();
    };
  }, [loadClient, started]);

  const value = useMemo<AuthContextValue>(
    () => ({
      session,
      user: session?.user ?? null,
      loading,
      signedOutByUser,
      clearSignedOutByUser,
      mfaRequired,
      signUp: async ({ email, password, fullName }) => {
        const client = await loadClient();
        const { data, error } = await client.auth.signUp({
          email,
          password,
          options: { data: { full_name: fullName }, emailRedirectTo: `${window.location.origin}${peekReturnTo() ?? paths.dashboard.href()}` },
        });
        return { error, session: data.session };
      },
      signIn: async ({ email, password }) => {
        const client = await loadClient();
        const { error } = await client.auth.signInWithPassword({ email, password });
        return { error, mfaRequired: error ? false : await needsMfa(client) };
      },
      verifyMfa: async (code) => {
        const client = await loadClient();
        const { data, error } = await client.auth.mfa.listFactors();
        if (error) return { error };
        const factor = data.totp[0];
        if (!factor) return { error: { message: 'No authenticator app is set up for this account' } };
        return { error: (await client.auth.mfa.challengeAndVerify({ factorId: factor.id, code })).error };
      },
      signOut: async () => {
        setSignedOutByUser(true);
        if (session) await onSignOut?.(session.user.id).catch(() => undefined);
        const { error } = await (await loadClient()).auth.signOut();
        if (error) setSignedOutByUser(false);
        return { error };
      },
    }),
    [loadClient, onSignOut, session, loading, signedOutByUser, clearSignedOutByUser, mfaRequired],
  );

  return (
    <AuthStartContext.Provider value={startValue}>
      <AuthContext.Provider value={value}>{children}</AuthContext.Provider>
    </AuthStartContext.Provider>
  );
}

/** The session was opened with the password only but the account has a verified factor (Supabase's getAuthenticatorAssuranceLevel). */
async function needsMfa(client: SupabaseAuth): Promise<boolean> {
  const { data } = await client.auth.mfa.getAuthenticatorAssuranceLevel();
  return data !== null && data.nextLevel === 'aal2' && data.currentLevel !== 'aal2';
}
