import { Progress } from '#web/components/ui/progress.tsx';
import { hoursUsedText, useMyPlan } from '#web/lib/my-plan.ts';

/** The usage card's rows of the person's plan: this month's transcription hours, against the plan's limit when one applies. */
export function PlanUsage() {
  const { data } = useMyPlan();
  if (!data) return null;
  const { plan, usage } = data;
  const limit = plan?.limits.hoursPerMonth ?? null;
  const label = 'Transcription this month';
  return (
    <div data-testid="plan-usage" className="grid gap-1.5 border-t pt-4">
      <div className="flex justify-between text-sm">
        <span className="text-muted-foreground">{label}</span>
        <span className="font-medium">{hoursUsedText(usage.hoursThisMonth, limit)}</span>
      </div>
      {limit !== null && <Progress value={Math.min(100, (usage.hoursThisMonth / limit) * 100)} aria-label={label} />}
      <p className="text-xs text-muted-foreground">
        {plan ? `${plan.name} plan` : 'No plan limits on this installation'}
        {usage.hiddenMeetings > 0 &&
          plan?.limits.historyDays != null &&
          ` · ${usage.hiddenMeetings} older meeting${usage.hiddenMeetings === 1 ? '' : 's'} hidden by its ${plan.limits.historyDays}-day history`}
      </p>
    </div>
  );
}
