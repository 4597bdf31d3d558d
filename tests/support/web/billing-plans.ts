import { PLANS, type BillingOverview, type PlanId } from '#shared/contracts/billing.ts';

/** A plan as GET /api/v1/billing answers it: the contract's own limits, from where it came. */
export function overviewPlan(id: PlanId, source: NonNullable<BillingOverview['plan']>['source']): NonNullable<BillingOverview['plan']> {
  const { name, limits } = PLANS[id];
  return { id, name, source, limits: { ...limits, exportFormats: [...limits.exportFormats] } };
}
