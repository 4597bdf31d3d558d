import { CheckIcon, CreditCardIcon } from 'lucide-react';
import { Link } from 'react-router';
import { formatAmount, PAID_PLAN_IDS, PLANS, TRIAL_DAYS, type BillingOverview, type PaidPlanId } from '#shared/contracts/billing.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardAction, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { paths } from '#web/app/paths.ts';
import { planLimitLines } from '#web/lib/my-plan.ts';
import { toast } from '#web/lib/toast.ts';
import { useCancelSubscription, useChangePlan, useOpenPortal, useStartCheckout } from '../billing-api.ts';

/** The pricing page's prices (spec §9), shown beside the plan the person is on. */
const PRICES: Record<string, string> = { free: '$0/month', pro: '$12.99/month', business: '$24.99/month' };
const LIVE = new Set(['trialing', 'active', 'past_due']);

const day = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
const failed = (error: Error) => toast.error(error.message);

/** What the subscription is doing now, in one sentence: the trial's end, the next bill, or the end it was cancelled to. */
export function subscriptionStatusText(overview: BillingOverview): string {
  const s = overview.subscription;
  if (!s || !LIVE.has(s.status)) return 'You are on the Free plan: subscribe to Pro or Business below.';
  const end = s.currentPeriodEnd ? day(s.currentPeriodEnd) : 'the end of the period';
  if (s.cancelAtPeriodEnd) return `Your subscription is cancelled: it ends on ${end}, and you keep ${s.planName} until then.`;
  if (s.keptPlan) return `You keep ${s.keptPlan.name} until ${day(s.keptPlan.until)}; then your plan is ${s.planName}.`;
  if (s.status === 'trialing' && s.trialEndsAt)
    return `Your free trial of ${s.planName} ends on ${day(s.trialEndsAt)}. Add a card under View invoice history to keep it; without one it ends then.`;
  if (s.status === 'past_due') return `Your last payment did not go through: update your card under View invoice history to keep ${s.planName}.`;
  return `Your next billing date is ${end}.`;
}

/**
 * An invoice whose payment failed, in words: how much, since when, and what paying it does. While
 * the subscription lives its plan is kept until Stripe's tries run out; once it has ended (the
 * account on Free), paying settles the invoice but brings no plan back.
 */
export function paymentFailureText(failure: NonNullable<BillingOverview['paymentFailure']>, subscription: BillingOverview['subscription']): string {
  const tries = failure.attempts === 1 ? 'once' : `${failure.attempts} times`;
  const failed = `Your payment of ${formatAmount(failure.amountDue, failure.currency)} did not go through (tried ${tries} since ${day(failure.failedAt)}).`;
  if (!subscription || !LIVE.has(subscription.status))
    return `${failed} Your subscription has ended, but the invoice is still open: pay it in the billing portal.`;
  const next = failure.nextAttemptAt
    ? `Stripe will try again on ${day(failure.nextAttemptAt)}.`
    : 'Stripe will not try again: pay the invoice in the billing portal to keep your plan.';
  return `${failed} ${next}`;
}

/** Settings › Billing's 'Subscription Plan' card on an installation that bills through Stripe. */
export function SubscriptionCard({ overview }: { overview: BillingOverview }) {
  const checkout = useStartCheckout();
  const portal = useOpenPortal();
  const change = useChangePlan();
  const cancel = useCancelSubscription();
  const s = overview.subscription;
  const live = s !== null && LIVE.has(s.status);
  const planId = overview.plan?.id ?? 'free';
  const busy = checkout.isPending || portal.isPending || change.isPending || cancel.isPending;
  const other: PaidPlanId | undefined = live ? (s.plan === 'pro' ? 'business' : s.plan === 'business' ? 'pro' : undefined) : undefined;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Subscription Plan</CardTitle>
        <CardDescription data-testid="subscription-status">{subscriptionStatusText(overview)}</CardDescription>
        {s?.status === 'trialing' && (
          <CardAction>
            <Badge variant="outline">Trial</Badge>
          </CardAction>
        )}
      </CardHeader>
      <CardContent className="grid gap-6">
        {overview.paymentFailure && (
          <div role="alert" className="grid gap-3 rounded-lg border border-destructive/40 bg-destructive/5 p-4 text-sm">
            <p>{paymentFailureText(overview.paymentFailure, s)}</p>
            {live && <p className="text-muted-foreground">Update your card or pay the invoice in the billing portal.</p>}
            <Button className="justify-self-start" disabled={busy} onClick={() => portal.mutate(undefined, { onError: failed })}>
              Update payment method
            </Button>
          </div>
        )}
        <div className="rounded-lg border p-4">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h3 className="text-lg font-semibold">{PLANS[planId].name} Plan</h3>
            <span className="font-medium">{PRICES[planId] ?? 'Custom'}</span>
          </div>
          {overview.plan && (
            <ul className="mt-3 grid gap-1.5 sm:grid-cols-2">
              {planLimitLines(overview.plan.limits).map((line) => (
                <li key={line} className="flex items-center gap-2 text-sm text-muted-foreground">
                  <CheckIcon className="size-4 text-primary" aria-hidden="true" />
                  {line}
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="grid gap-2">
          <h3 className="text-sm font-medium">Payment Method</h3>
          <div className="flex items-center gap-3 rounded-lg border p-3 text-sm text-muted-foreground">
            <CreditCardIcon className="size-5" aria-hidden="true" />
            Your card is kept by Stripe, never by this installation: add or change it under View invoice history.
          </div>
        </div>
      </CardContent>
      <CardFooter className="flex-wrap gap-2">
        {!live &&
          PAID_PLAN_IDS.map((plan) => (
            <Button key={plan} disabled={busy} onClick={() => checkout.mutate(plan, { onError: failed })}>
              {overview.trialAvailable ? `Start ${TRIAL_DAYS}-day free trial of ${PLANS[plan].name}` : `Subscribe to ${PLANS[plan].name}`}
            </Button>
          ))}
        {other && (
          <Button
            disabled={busy}
            onClick={() =>
              change.mutate(other, {
                onError: failed,
                onSuccess: (next) => toast.success(next.subscription?.keptPlan ? subscriptionStatusText(next) : `Your plan is now ${PLANS[other].name}.`),
              })
            }
          >
            {other === 'business' ? 'Upgrade to Business' : 'Switch to Pro'}
          </Button>
        )}
        <Button variant="outline" disabled={busy} onClick={() => portal.mutate(undefined, { onError: failed })}>
          View invoice history
        </Button>
        {live && !s.cancelAtPeriodEnd && (
          <Button
            variant="outline"
            disabled={busy}
            onClick={() => cancel.mutate(undefined, { onError: failed, onSuccess: (next) => toast.success(subscriptionStatusText(next)) })}
          >
            Cancel Subscription
          </Button>
        )}
        <Button variant="outline" asChild>
          <Link to={paths.pricing.href()}>Upgrade to Enterprise</Link>
        </Button>
      </CardFooter>
    </Card>
  );
}
