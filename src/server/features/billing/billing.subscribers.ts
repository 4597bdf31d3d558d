import type { DomainEvents } from '#server/events/domain-events.ts';
import type { BillingService } from './billing.service.ts';

/**
 * Billing Information saved: copied to the person's Stripe customer; a subscription past due or an
 * invoice whose payment failed: the person emailed. Each retried with the queue's backoff while Stripe or the mail server fails.
 */
export function subscribeBilling(events: DomainEvents, billing: BillingService): void {
  events.subscribe('billing', ['billing_details.updated', 'subscription.past_due', 'invoice.payment_failed'], async (event) => {
    if (event.type === 'billing_details.updated' && event.ownerId) await billing.syncCustomer(event.ownerId);
    if (event.type === 'subscription.past_due' && event.ownerId) await billing.sendPastDueEmail(event.ownerId, event.payload.planName);
    if (event.type === 'invoice.payment_failed' && event.ownerId) await billing.sendPaymentFailedEmail(event.ownerId, event.payload);
  });
}
