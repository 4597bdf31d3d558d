import type { DomainEvents } from '#server/events/domain-events.ts';
import type { SlackService } from './slack.service.ts';

/**
 * Notes ready: posted to the owner's Slack channel and the meeting's team's, once each (by event id).
 * A team deleted: its channel goes (the app's token revoked).
 */
export function subscribeSlack(events: DomainEvents, slack: SlackService): void {
  events.subscribe('slack', ['notes.ready', 'team.deleted'], async (event, { signal, final }) => {
    if (event.type === 'notes.ready') await slack.notesReady(event, { signal, final });
    if (event.type === 'team.deleted') await slack.teamDeleted(event.subject.id);
  });
}
