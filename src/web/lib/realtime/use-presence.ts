import { useEffect } from 'react';
import { teamEndpoints } from '#shared/contracts/teams.ts';
import { api } from '../api-client.ts';
import { useAccessToken } from '../auth/access-token.ts';

/** Well inside the 10 minutes after which a teammate reads "Away", without a request a minute. */
export const PRESENCE_HEARTBEAT_MS = 2 * 60_000;

/**
 * While this tab is visible, tells the server every two minutes that its person is here, so their
 * teams' /team pages say "Available" (and, after being away, hear of it at once). A hidden tab sends
 * nothing: a forgotten background tab is not someone at their desk. One missed beat costs nothing,
 * so failures are ignored.
 */
export function usePresenceHeartbeat(): void {
  const token = useAccessToken();
  const signedIn = Boolean(token);
  useEffect(() => {
    if (!signedIn) return;
    const beat = () => {
      if (document.visibilityState === 'visible') api(teamEndpoints.heartbeat, {}).catch(() => undefined);
    };
    beat();
    const timer = setInterval(beat, PRESENCE_HEARTBEAT_MS);
    const onVisible = () => document.visibilityState === 'visible' && beat();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [signedIn]);
}
