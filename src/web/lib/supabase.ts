import type { SupabaseClient } from '@supabase/supabase-js';
import { appConfig } from './config.ts';

/**
 * The unmodified Supabase client, pointed at this Parley server's own origin: it speaks to
 * /auth/v1, which Parley implements. Only its auth client is used. Loaded on demand so the
 * landing page's first download does not carry it.
 */
let client: Promise<SupabaseClient> | undefined;

export function loadSupabase(): Promise<SupabaseClient> {
  client ??= import('@supabase/supabase-js').then(({ createClient }) => {
    const config = appConfig();
    return createClient(config.authUrl ?? window.location.origin, config.anonKey);
  });
  return client;
}
