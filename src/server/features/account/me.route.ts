import { meEndpoints, type Me } from '#shared/contracts/me.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller, type ApiCaller } from '../auth/api-guard.ts';
import { parseJsonObject } from '../auth/users.ts';

/** GET /api/v1/me: who the bearer token belongs to. */
export function registerMeRoute(route: Router, deps: { firstVisit: (user: ApiCaller['user'], sessionId: string) => Promise<boolean> }): void {
  route(meEndpoints.get, async (request): Promise<Me> => {
    const { user, session } = caller(request);
    const metadata = parseJsonObject(user.raw_user_meta_data);
    const fullName = typeof metadata.full_name === 'string' && metadata.full_name.trim() !== '' ? metadata.full_name : null;
    return {
      id: user.id,
      email: user.email,
      fullName,
      emailConfirmed: user.email_confirmed_at !== null,
      // An API token has no session; it was made in one that passed any second factor.
      aal: session?.aal ?? 'aal1',
      createdAt: user.created_at,
      // A token's call is no visit to the app: only a session's first use greets as new.
      firstVisit: session ? await deps.firstVisit(user, session.id) : false,
    };
  });
}
