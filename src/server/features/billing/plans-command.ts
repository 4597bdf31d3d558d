import { PLAN_IDS, PLANS, PlanIdSchema } from '#shared/contracts/billing.ts';
import type { Db } from '#server/db/create-db.ts';
import { assignedPlans, assignPlan } from './billing.repository.ts';

export const PLANS_USAGE = `Usage: npm run plans -- list | set <email> <${PLAN_IDS.join('|')}|none>`;

/** What the command needs of the accounts (auth's people). */
type Accounts = {
  userIdOfEmail: (email: string) => Promise<string | undefined>;
  accountOf: (userId: string) => Promise<{ email: string } | undefined>;
};

/**
 * `npm run plans`: the administrator assigns an account a plan, whose limits then apply to it (an
 * installation that limits internally, with or without billing), or takes it away; `list` shows
 * every assignment. Answers the exit code and the lines to print.
 */
export async function plansCommand(
  db: Db,
  args: readonly string[],
  deps: { accounts: Accounts; billing: boolean; now: Date },
): Promise<{ code: number; lines: string[] }> {
  const [command, email, plan] = args;
  const unassigned = deps.billing
    ? 'Accounts without an assigned plan are on Free unless they subscribe.'
    : 'Billing is not configured: accounts without an assigned plan have no limits.';
  if (command === 'list' && args.length === 1) {
    const rows = await assignedPlans(db, 10_000);
    if (rows.length === 0) return { code: 0, lines: ['No account has an assigned plan.', unassigned] };
    const lines = await Promise.all(
      rows.map(async (row) => `${(await deps.accounts.accountOf(row.userId))?.email ?? row.userId}  ${PLANS[row.plan].name}  (since ${row.updatedAt})`),
    );
    return { code: 0, lines: [...lines, unassigned] };
  }
  if (command === 'set' && email && plan && args.length === 3) {
    const chosen = plan === 'none' ? null : PlanIdSchema.safeParse(plan.toLowerCase());
    if (chosen !== null && !chosen.success) return { code: 2, lines: [`There is no plan "${plan}".`, PLANS_USAGE] };
    const userId = await deps.accounts.userIdOfEmail(email.trim().toLowerCase());
    if (!userId) return { code: 1, lines: [`No account has the email ${email}.`] };
    await assignPlan(db, userId, chosen === null ? null : chosen.data, deps.now);
    if (chosen === null) return { code: 0, lines: [`${email} no longer has an assigned plan.`, unassigned] };
    return { code: 0, lines: [`${email} is on the ${PLANS[chosen.data].name} plan: its limits apply from now on.`] };
  }
  return { code: 2, lines: [PLANS_USAGE] };
}
