import type { DomainEvents } from '#server/events/domain-events.ts';
import type { SamplesService } from './samples.service.ts';

/**
 * A new account's sample meetings, set up by a worker after the sign-up answered (so the web
 * process spends no time on them): once per account, however often the delivery runs.
 */
export function subscribeSamples(events: DomainEvents, samples: Pick<SamplesService, 'seed'>): void {
  events.subscribe('samples', ['account.created'], async (event) => {
    if (event.type !== 'account.created' || !event.ownerId) return;
    await samples.seed(event.ownerId, event.id, new Date(event.occurredAt));
  });
}
