import type { DomainEvents } from '#server/events/domain-events.ts';
import type { MeetingsService } from './meetings.service.ts';

/**
 * The meetings' side of what happens elsewhere: a person who leaves a team, or is removed from it,
 * takes back the meetings they shared with it (they become private again).
 */
export function subscribeMeetings(events: DomainEvents, meetings: Pick<MeetingsService, 'ownerLeftTeam'>): void {
  events.subscribe('meetings', ['team.member_removed'], async (event) => {
    if (event.type !== 'team.member_removed' || !event.teamId) return;
    await meetings.ownerLeftTeam(event.payload.userId, event.teamId, event.actorId);
  });
}
