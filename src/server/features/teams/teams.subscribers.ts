import type { DomainEvents } from '#server/events/domain-events.ts';
import type { TeamsService } from './teams.service.ts';

/**
 * The team's side of what happens elsewhere: a meeting recorded into, imported into or shared with
 * the team is in its activity (written once per event), and an emailed invitation is sent.
 */
export function subscribeTeams(events: DomainEvents, teams: TeamsService): void {
  events.subscribe('teams', ['transcript.ready', 'meeting.shared', 'invitation.created'], async (event, attempt) => {
    switch (event.type) {
      case 'invitation.created':
        return teams.sendInvitationEmail(event, attempt);
      case 'transcript.ready': {
        if (!event.teamId || !event.ownerId) return;
        const kind = event.payload.origin === 'import' ? 'meeting_imported' : 'meeting_recorded';
        return teams.recordActivity({
          id: event.id,
          teamId: event.teamId,
          actorId: event.ownerId,
          kind,
          meetingId: event.subject.id,
          meetingTitle: event.payload.title,
        });
      }
      case 'meeting.shared': {
        if (!event.payload.teamId || !event.actorId) return;
        return teams.recordActivity({
          id: event.id,
          teamId: event.payload.teamId,
          actorId: event.actorId,
          kind: 'meeting_shared',
          meetingId: event.subject.id,
          meetingTitle: event.payload.title,
        });
      }
    }
  });
}
