import type { DomainEvents } from '#server/events/domain-events.ts';
import type { SlackService } from './slack.service.ts';

/** Notes ready: posted to the owner's Slack channel and the meeting's team's, once each (by event id). */
export function subscribeSlack(events: DomainEvents, slack: SlackService): void {
  events.subscribe('slack', ['notes.ready'], async (event, { signal, final }) => {
    if (event.type === 'notes.ready') await slack.notesReady(event, { signal, final });
  });
}
