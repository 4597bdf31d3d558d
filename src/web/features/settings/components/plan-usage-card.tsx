import { CheckIcon } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Progress } from '#web/components/ui/progress.tsx';
import type { BillingOverview } from '#shared/contracts/billing.ts';
import { hoursUsedText, planLimitLines } from '#web/lib/my-plan.ts';

const monthName = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** What the server says of the person's plan: who set it, or that nothing limits them. */
export function planDescription(overview: BillingOverview): string {
  const { plan } = overview;
  if (!plan) return 'No plan limits apply to your account on this installation.';
  if (plan.source === 'administrator')
    return `Your account is on the ${plan.name} plan, set by the administrator of this installation. Its limits apply to you:`;
  return `Your account is on the ${plan.name} plan. Its limits apply to you:`;
}

/** Settings › Billing: the plan that applies (or none), its limits, and this month's usage counted by the server. */
export function PlanUsageCard({ overview }: { overview: BillingOverview }) {
  const { plan, usage } = overview;
  const limit = plan?.limits.hoursPerMonth ?? null;
  return (
    <Card data-testid="plan-usage">
      <CardHeader>
        <CardTitle>Plan and usage</CardTitle>
        <CardDescription>{planDescription(overview)}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {plan && (
          <ul className="grid gap-1.5 sm:grid-cols-2">
            {planLimitLines(plan.limits).map((line) => (
              <li key={line} className="flex items-center gap-2 text-sm text-muted-foreground">
                <CheckIcon className="size-4 text-primary" aria-hidden="true" />
                {line}
              </li>
            ))}
          </ul>
        )}
        <div className="grid gap-1.5">
          <div className="flex justify-between text-sm">
            <span className="text-muted-foreground">Transcription in {monthName(usage.periodStart)}</span>
            <span className="font-medium">{hoursUsedText(usage.hoursThisMonth, limit)}</span>
          </div>
          {limit !== null && <Progress value={Math.min(100, (usage.hoursThisMonth / limit) * 100)} aria-label="Transcription hours used this month" />}
        </div>
        <div className="flex justify-between text-sm">
          <span className="text-muted-foreground">Meetings added this month</span>
          <span className="font-medium">{usage.meetingsThisMonth}</span>
        </div>
        {usage.hiddenMeetings > 0 && plan?.limits.historyDays != null && (
          <p className="text-sm text-muted-foreground">
            {usage.hiddenMeetings === 1 ? '1 meeting is' : `${usage.hiddenMeetings} meetings are`} older than your plan's {plan.limits.historyDays}-day history:
            hidden, not deleted, and back with a longer history.
          </p>
        )}
      </CardContent>
    </Card>
  );
}
