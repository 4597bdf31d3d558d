import { meEndpoints } from '#shared/contracts/me.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller, sessionCaller } from '../auth/api-guard.ts';
import { notFound } from '#server/lib/app-error.ts';
import type { AccountCaller, AccountService } from './account.service.ts';
import type { AvatarStore } from './avatars.ts';

/** DELETE /api/v1/me/data and DELETE /api/v1/me (Settings › Privacy's danger zone); the profile picture. */
export function registerAccountRoutes(route: Router, deps: { account: AccountService; avatars: AvatarStore }): void {
  route(meEndpoints.setAvatar, async (request) => ({
    avatarUrl: await deps.avatars.save(caller(request).user.id, Buffer.from(request.body.image, 'base64')),
  }));
  // Public, like a share link's content: an <img> sends no bearer token, and the id is a random uuid.
  route(meEndpoints.avatar, async (request, reply) => {
    const picture = await deps.avatars.open(request.params.id);
    if (!picture) throw notFound('Picture');
    return reply
      .header('content-type', 'image/webp')
      .header('content-length', picture.bytes)
      .header('cache-control', 'public, max-age=300')
      .header('x-content-type-options', 'nosniff')
      .send(picture.stream);
  });
  route(meEndpoints.deleteData, async (request) => deps.account.deleteAllData(accountCaller(request), request.body));
  route(meEndpoints.deleteAccount, async (request) => deps.account.deleteAccount(accountCaller(request), request.body));
}

function accountCaller(request: Parameters<typeof caller>[0]): AccountCaller {
  const { user, session } = sessionCaller(request);
  return { userId: user.id, email: user.email, sessionId: session.id, ip: request.ip };
}
