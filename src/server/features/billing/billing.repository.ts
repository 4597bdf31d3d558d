import { PlanIdSchema, type PlanId } from '#shared/contracts/billing.ts';
import type { Db } from '#server/db/create-db.ts';

const planOf = (value: string | null): PlanId | undefined => {
  const parsed = PlanIdSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
};

/** The plan an administrator assigned to the account, if any. */
export async function assignedPlanOf(db: Db, userId: string): Promise<PlanId | undefined> {
  const row = await db.selectFrom('billing_accounts').select('assigned_plan').where('user_id', '=', userId).executeTakeFirst();
  return row ? planOf(row.assigned_plan) : undefined;
}

/** Assigns a plan (null: takes the assignment away). */
export async function assignPlan(db: Db, userId: string, plan: PlanId | null, now: Date): Promise<void> {
  const updatedAt = now.toISOString();
  await db
    .insertInto('billing_accounts')
    .values({ user_id: userId, assigned_plan: plan, updated_at: updatedAt })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ assigned_plan: plan, updated_at: updatedAt }))
    .execute();
}

/** Every account with an assigned plan, the latest assignment first. */
export async function assignedPlans(db: Db, limit: number): Promise<{ userId: string; plan: PlanId; updatedAt: string }[]> {
  const rows = await db
    .selectFrom('billing_accounts')
    .select(['user_id', 'assigned_plan', 'updated_at'])
    .where('assigned_plan', 'is not', null)
    .orderBy('updated_at', 'desc')
    .limit(limit)
    .execute();
  return rows.flatMap((row) => {
    const plan = planOf(row.assigned_plan);
    return plan ? [{ userId: row.user_id, plan, updatedAt: row.updated_at }] : [];
  });
}
