import type { FastifyInstance } from 'fastify';
import { billingEndpoints } from '#shared/contracts/billing.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller, sessionCaller } from '../auth/api-guard.ts';
import type { BillingService } from './billing.service.ts';

/** Where Stripe sends its webhooks (the endpoint an operator adds in Stripe's dashboard): public, verified by signature. */
export const STRIPE_WEBHOOK_PATH = '/billing/stripe/webhook';
const WEBHOOK_BODY_LIMIT = 512 * 1024;

/**
 * /api/v1/billing: the caller's plan, its limits and this month's usage (Settings › Billing, the
 * dashboard); with Stripe configured, Checkout, the Customer Portal, plan changes and Cancel
 * Subscription, for a signed-in session only.
 */
export function registerBillingRoutes(route: Router, deps: { billing: BillingService }): void {
  const { billing } = deps;
  route(billingEndpoints.overview, async (request) => billing.overview(caller(request).user.id));
  route(billingEndpoints.checkout, async (request) => billing.checkout(sessionCaller(request).user.id, request.body.plan));
  route(billingEndpoints.portal, async (request) => billing.portal(sessionCaller(request).user.id));
  route(billingEndpoints.changePlan, async (request) => {
    const userId = sessionCaller(request).user.id;
    await billing.changePlan(userId, request.body.plan);
    return billing.overview(userId);
  });
  route(billingEndpoints.cancel, async (request) => {
    const userId = sessionCaller(request).user.id;
    await billing.cancel(userId);
    return billing.overview(userId);
  });
}

/**
 * POST /billing/stripe/webhook: Stripe's events, read as the raw bytes their signature covers (in this
 * scope only), verified and processed once each. Registered only when Stripe is configured.
 */
export async function registerStripeWebhook(app: FastifyInstance, deps: { billing: BillingService }): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));
    scope.post(STRIPE_WEBHOOK_PATH, async (request) => {
      const signature = request.headers['stripe-signature'];
      const outcome = await deps.billing.webhook(request.body as Buffer, typeof signature === 'string' ? signature : undefined);
      return { received: true, outcome };
    });
  });
}
