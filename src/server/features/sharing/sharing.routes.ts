import { shareEndpoints } from '#shared/contracts/sharing.ts';
import { AppError, notFound } from '#server/lib/app-error.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller } from '../auth/api-guard.ts';
import { MAX_ACTIVE_LINKS_PER_MEETING, type SharingService } from './sharing.service.ts';

/**
 * Share links: the owner creates, lists and revokes links to one meeting; anyone holding an active
 * link reads the meeting through /api/v1/shared/:token without signing in.
 */
export function registerSharingRoutes(route: Router, deps: { sharing: SharingService; publicUrl: string }): void {
  const { sharing } = deps;
  const shareUrl = (token: string) => `${deps.publicUrl.replace(/\/+$/, '')}/shared/${token}`;

  route(shareEndpoints.create, async (request) => {
    const result = await sharing.create(caller(request).user.id, request.params.id);
    if (result.kind === 'not-found') throw notFound('Meeting');
    if (result.kind === 'too-many') {
      throw new AppError('CONFLICT', `This meeting already has ${MAX_ACTIVE_LINKS_PER_MEETING} active share links. Revoke one before creating another.`);
    }
    return { ...result.link, token: result.token, url: shareUrl(result.token) };
  });
  route(shareEndpoints.list, async (request) => {
    const items = await sharing.list(caller(request).user.id, request.params.id);
    if (!items) throw notFound('Meeting');
    return { items };
  });
  route(shareEndpoints.revoke, async (request) => {
    const { id, shareId } = request.params;
    if (!(await sharing.revoke(caller(request).user.id, id, shareId))) throw notFound('Share link');
    return { revoked: true as const };
  });
  route(shareEndpoints.shared, async (request, reply) => {
    const meeting = await sharing.shared(request.params.token);
    // One message for revoked, deleted and never-issued links: a reader cannot tell them apart.
    if (!meeting) throw new AppError('NOT_FOUND', 'This share link does not exist or has been revoked');
    void reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex');
    return meeting;
  });
}
