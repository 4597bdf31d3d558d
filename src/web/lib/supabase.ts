import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { appConfig } from './config.ts';

/**
 * The unmodified Supabase client, pointed at this Parley server's own origin: it speaks to
 * /auth/v1, which Parley implements. Only its auth client is used.
 */
let client: SupabaseClient | undefined;

export function supabase(): SupabaseClient {
  const config = appConfig();
  client ??= createClient(config.authUrl ?? window.location.origin, config.anonKey);
  return client;
}
