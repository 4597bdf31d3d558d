import type { DomainEvents } from '#server/events/domain-events.ts';
import type { EmotionService } from './emotion.service.ts';

/** A stored or edited transcript is scored by the operator's emotion provider (subscribed only when one is configured). */
export function subscribeEmotion(events: DomainEvents, emotion: EmotionService): void {
  events.subscribe('emotion', ['transcript.ready', 'transcript.edited'], async (event) => {
    if (event.ownerId) await emotion.transcriptChanged(event.subject.id, event.ownerId);
  });
}
