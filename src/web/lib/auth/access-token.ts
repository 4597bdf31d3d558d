import { loadSupabase } from '../supabase.ts';
import { useAuth } from './use-auth.ts';

/**
 * The one place the web app gets the signed-in person's access token: API calls, downloads, the
 * audio player, tus uploads and the live transcript all ask here. The auth client keeps the session and
 * refreshes it when it is due.
 */
export async function getAccessToken(): Promise<string | undefined> {
  const { data } = await (await loadSupabase()).auth.getSession();
  return data.session?.access_token;
}

let refreshing: Promise<string | undefined> | undefined;

/**
 * A new access token after the server refused the current one (401). Calls failing at the same
 * moment share one refresh, so a burst of 401s rotates the refresh token once.
 */
export function refreshAccessToken(): Promise<string | undefined> {
  refreshing ??= requestRefresh().finally(() => {
    refreshing = undefined;
  });
  return refreshing;
}

async function requestRefresh(): Promise<string | undefined> {
  try {
    const { data, error } = await (await loadSupabase()).auth.refreshSession();
    return error ? undefined : data.session?.access_token;
  } catch {
    return undefined; // no session to refresh, or the auth server is unreachable: the 401 stands
  }
}

export const bearer = (token: string | undefined): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});

/** The token as the session context holds it, for code that must react when it changes (the realtime socket). */
export const useAccessToken = (): string | undefined => useAuth().session?.access_token;
