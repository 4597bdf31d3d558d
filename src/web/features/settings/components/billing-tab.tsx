import { CheckIcon, CreditCardIcon } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardAction, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { MAX_BILLING_FIELD_LENGTH } from '#shared/contracts/settings.ts';
import { BILLING_FIELDS } from '../preferences.ts';
import { SettingsLoadState } from './settings-load-state.tsx';
import { SettingsSaveFooter } from './settings-save-footer.tsx';
import { notAvailableYet, SETTINGS_MESSAGES } from '../settings-messages.ts';
import { useSettingsTab } from '../use-settings-tab.ts';
import { paths } from '#web/app/paths.ts';
import { SELF_HOSTED_MESSAGES, SelfHostedNote } from '#web/components/self-hosted-note.tsx';
import { installation } from '#web/lib/config.ts';
import { useMyPlan } from '#web/lib/my-plan.ts';
import { PlanUsageCard } from './plan-usage-card.tsx';
import { SubscriptionCard } from './subscription-card.tsx';

/**
 * The plan as this screen shows it. Spec §9 records that it disagrees with the pricing page's Pro
 * plan ($12.99) and asks for both readings to be kept, each on its own screen.
 */
const PLAN = {
  name: 'Pro Plan',
  price: '$29/month per user',
  features: ['Unlimited recordings', 'All AI features', '100GB cloud storage', 'Up to 20 team members'],
};
/** What is true of billing on a self-hosted installation, said beside the spec's sample details. */
const BILLING_MESSAGES = {
  nothingBilled: 'Sample date: nothing is billed on this installation.',
  detailsNotUsed:
    'Saved to your account only: no payment provider is connected to this installation, so these details are not used for billing and go nowhere else.',
} as const;

/** Spec §9: the next billing date is a fixed text. */
const NEXT_BILLING_DATE = 'January 1, 2027';

/**
 * Billing tab (spec §2 /settings): the plan that applies and this month's usage (the server's), the
 * spec's sample plan and card, and billing details saved to the account. An account the
 * administrator put on a plan is not told that every feature is included.
 */
export function BillingTab() {
  // Back from Checkout: the subscription arrives with Stripe's webhook, so the plan is read again until it has.
  const [search] = useSearchParams();
  const plan = useMyPlan({ awaitSubscription: search.get('checkout') === 'done' });
  const overview = plan.data;
  // An installation that bills shows its plan once it is read, never the self-hosted sample meanwhile.
  const billed = installation().billing;
  return (
    <div className="grid gap-6">
      {(overview ? !overview.plan : !billed) && (
        <SelfHostedNote detail={SELF_HOSTED_MESSAGES.plansNotSold} className="justify-start rounded-lg border bg-accent/40 p-4 text-foreground" />
      )}
      {overview && <PlanUsageCard overview={overview} />}
      {overview?.billing ? (
        <SubscriptionCard overview={overview} />
      ) : billed && !overview ? (
        <SettingsLoadState title="Subscription Plan" query={plan} />
      ) : (
        <SubscriptionPlanCard />
      )}
      <BillingInformationCard />
    </div>
  );
}

function SubscriptionPlanCard() {
  const { billing } = installation();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Subscription Plan</CardTitle>
        <CardDescription>Billing is not connected on this installation: the plan and card below are sample details.</CardDescription>
        <CardAction>
          <Badge variant="outline">Sample</Badge>
        </CardAction>
      </CardHeader>
      <CardContent className="grid gap-6">
        <div className="rounded-lg border p-4">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h3 className="text-lg font-semibold">{PLAN.name}</h3>
            <span className="font-medium">{PLAN.price}</span>
          </div>
          <ul className="mt-3 grid gap-1.5 sm:grid-cols-2">
            {PLAN.features.map((feature) => (
              <li key={feature} className="flex items-center gap-2 text-sm text-muted-foreground">
                <CheckIcon className="size-4 text-primary" aria-hidden="true" />
                {feature}
              </li>
            ))}
          </ul>
        </div>
        <div className="grid gap-2">
          <h3 className="text-sm font-medium">Payment Method</h3>
          <div className="flex items-center gap-3 rounded-lg border p-3 text-sm">
            <CreditCardIcon className="size-5 text-muted-foreground" aria-hidden="true" />
            <span aria-label="Visa card ending in 4242">•••• •••• •••• 4242</span>
            <span className="ml-auto text-muted-foreground">Expires 12/2028</span>
          </div>
        </div>
        <p className="text-sm text-muted-foreground">
          Your next billing date is {NEXT_BILLING_DATE}.{!billing && ` ${BILLING_MESSAGES.nothingBilled}`}
        </p>
      </CardContent>
      <CardFooter className="flex-wrap gap-2">
        <Button variant="outline" onClick={() => toast.info(notAvailableYet('Invoice history'))}>
          View invoice history
        </Button>
        <Button variant="outline" onClick={() => toast.info('This installation has no paid subscription, so there is nothing to cancel.')}>
          Cancel Subscription
        </Button>
        <Button asChild>
          <Link to={paths.pricing.href()}>Upgrade to Enterprise</Link>
        </Button>
      </CardFooter>
    </Card>
  );
}

const BILLING_TITLE = 'Billing Information';

function BillingInformationCard() {
  // Until the person saves their own, the server answers the account's name and email here.
  const { query, values, set, save, isSaving } = useSettingsTab('billing', {
    saved: SETTINGS_MESSAGES.billingUpdated,
    failed: SETTINGS_MESSAGES.billingFailed,
  });
  if (!values) return <SettingsLoadState title={BILLING_TITLE} query={query} />;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{BILLING_TITLE}</CardTitle>
        <CardDescription>{installation().billing ? 'Saved to your account.' : BILLING_MESSAGES.detailsNotUsed}</CardDescription>
      </CardHeader>
      <form
        className="grid gap-6"
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <CardContent className="grid gap-4 sm:grid-cols-2">
          {BILLING_FIELDS.map(({ field, label, autoComplete }) => (
            <div key={field} className={field === 'address' ? 'grid gap-2 sm:col-span-2' : 'grid gap-2'}>
              <Label htmlFor={`billing-${field}`}>{label}</Label>
              <Input
                id={`billing-${field}`}
                type={field === 'email' ? 'email' : 'text'}
                autoComplete={`billing ${autoComplete}`}
                maxLength={MAX_BILLING_FIELD_LENGTH}
                value={values[field]}
                onChange={(event) => set(field, event.target.value)}
              />
            </div>
          ))}
        </CardContent>
        <SettingsSaveFooter label="Save Changes" isSaving={isSaving} />
      </form>
    </Card>
  );
}
