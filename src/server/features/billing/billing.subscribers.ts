import type { DomainEvents } from '#server/events/domain-events.ts';
import type { BillingService } from './billing.service.ts';

/** Billing Information saved: copied to the person's Stripe customer (retried with the queue's backoff while Stripe fails). */
export function subscribeBilling(events: DomainEvents, billing: BillingService): void {
  events.subscribe('billing', ['billing_details.updated'], async (event) => {
    if (event.type === 'billing_details.updated' && event.ownerId) await billing.syncCustomer(event.ownerId);
  });
}
