import type { DomainEvents } from '#server/events/domain-events.ts';
import type { AskService } from './ask.service.ts';

/** A stored or edited transcript is embedded for Ask (only changed lines are sent). */
export function subscribeAsk(events: DomainEvents, ask: AskService): void {
  events.subscribe('ask', ['transcript.ready', 'transcript.edited'], async (event) => {
    await ask.transcriptReady(event.subject.id);
  });
}
