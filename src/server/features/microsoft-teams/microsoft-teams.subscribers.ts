import type { DomainEvents } from '#server/events/domain-events.ts';
import type { MicrosoftTeamsService } from './microsoft-teams.service.ts';

/**
 * Notes ready: an Adaptive Card to the owner's Teams channel and the meeting's team's, once each (by
 * event id). A team deleted: its channel goes.
 */
export function subscribeMicrosoftTeams(events: DomainEvents, microsoftTeams: MicrosoftTeamsService): void {
  events.subscribe('microsoft-teams', ['notes.ready', 'team.deleted'], async (event, { signal, final }) => {
    if (event.type === 'notes.ready') await microsoftTeams.notesReady(event, { signal, final });
    if (event.type === 'team.deleted') await microsoftTeams.teamDeleted(event.subject.id);
  });
}
