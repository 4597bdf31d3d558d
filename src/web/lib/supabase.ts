import type { GoTrueClient } from '@supabase/auth-js';
import { appConfig } from './config.ts';

/**
 * What the web app uses of a Supabase client: its auth client, which speaks to /auth/v1 on this
 * Parley server. supabase-js would bring its database, storage, functions and realtime clients too
 * (twice the auth client's bytes, on the critical path of every signed-in page), so the app builds
 * the same `AuthClient` from @supabase/auth-js (the package supabase-js wraps) the way `createClient`
 * does; the tests still drive the server with supabase-js itself.
 */
export type SupabaseAuth = { auth: GoTrueClient };

let client: Promise<SupabaseAuth> | undefined;

/** Loaded on demand, so the landing page's first download does not carry it. */
export function loadSupabase(): Promise<SupabaseAuth> {
  client ??= import('@supabase/auth-js').then(({ AuthClient }) => {
    const { authUrl, anonKey } = appConfig();
    const root = authUrl ?? window.location.origin;
    const base = new URL(root.endsWith('/') ? root : `${root}/`);
    return {
      auth: new AuthClient({
        url: new URL('auth/v1', base).href,
        headers: { Authorization: `Bearer ${anonKey}`, apikey: anonKey },
        // createClient's key, so sessions stored before (and by supabase-js in the tests) are found.
        storageKey: `sb-${base.hostname.split('.')[0]}-auth-token`,
        // createClient's auth defaults; storage (localStorage) and how tabs share a refresh are AuthClient's own, as there.
        autoRefreshToken: true,
        persistSession: true,
        detectSessionInUrl: true,
        flowType: 'implicit',
      }),
    };
  });
  return client;
}
