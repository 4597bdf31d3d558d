import { PLAN_IDS, PLANS, type BillingOverview, type PlanId, type PlanLimits } from '#shared/contracts/billing.ts';
import type { ExportFormat } from '#shared/contracts/meetings.ts';
import type { Db } from '#server/db/create-db.ts';
import { AppError } from '#server/lib/app-error.ts';
import { assignedPlanOf, assignedPlans, assignPlan } from './billing.repository.ts';

/** What billing counts of the meetings feature (deps.ts hands it over): usage comes from the meetings themselves. */
export type MeetingUsagePort = {
  /** The owner's own meetings (samples aside) added since `since`: how many, and their recorded seconds. */
  usageSince: (ownerId: string, since: Date) => Promise<{ meetings: number; seconds: number }>;
  /** How many of the owner's meetings were added before `before` (what a plan's history hides). */
  countAddedBefore: (ownerId: string, before: Date) => Promise<number>;
};

type AppliedPlan = { id: PlanId; source: 'administrator' | 'default'; limits: PlanLimits };

const DAY_MS = 86_400_000;
const FORMAT_NAMES: Record<ExportFormat, string> = { txt: 'text', md: 'Markdown', docx: 'DOCX', pdf: 'PDF', srt: 'SRT', vtt: 'WebVTT' };
const hours = (seconds: number) => Math.round((seconds / 3600) * 10) / 10;
const list = (items: readonly string[]) => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** The calendar month (UTC) `now` falls in: plan hours are counted per month. */
export function monthOf(now: Date): { start: Date; end: Date } {
  return { start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)), end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)) };
}

export type BillingService = ReturnType<typeof createBillingService>;

/**
 * Plans and their limits (spec §9's pricing page), enforced where each feature is used: transcription
 * hours a month (recording, upload, import), participants per meeting, export formats, history (older
 * meetings hidden, never deleted), real-time transcription, API access and team management. Without
 * billing configured (`payments` false) nobody is limited unless the administrator assigned them a
 * plan; with it, an account without a plan of its own is on Free. Refusals name the plan and the way up.
 */
export function createBillingService(deps: { db: Db; meetings: MeetingUsagePort; payments: boolean; now: () => Date }) {
  const { db, meetings, payments } = deps;

  const planOf = async (userId: string): Promise<AppliedPlan | undefined> => {
    const assigned = await assignedPlanOf(db, userId);
    if (assigned) return { id: assigned, source: 'administrator', limits: PLANS[assigned].limits };
    return payments ? { id: 'free', source: 'default', limits: PLANS.free.limits } : undefined;
  };

  /** The first plan above `current` that allows it, and how to get there. */
  const upgradePath = (current: PlanId, allows: (limits: PlanLimits) => boolean, benefit: (limits: PlanLimits) => string): string => {
    const to = PLAN_IDS.slice(PLAN_IDS.indexOf(current) + 1).find((id) => allows(PLANS[id].limits));
    if (!to) return '';
    const name = PLANS[to].name;
    const what = benefit(PLANS[to].limits);
    return payments
      ? ` Upgrade to ${name} in Settings › Billing for ${what}.`
      : ` Ask the administrator of this installation to move your account to the ${name} plan for ${what}.`;
  };

  const refuse = (plan: AppliedPlan, message: string) => new AppError('PLAN_LIMIT', message, { details: { plan: plan.id } });

  const usageOf = async (userId: string) => {
    const month = monthOf(deps.now());
    const usage = await meetings.usageSince(userId, month.start);
    return { ...usage, month };
  };

  return {
    /** The plan whose limits apply to the account; undefined: none (a self-hosted installation's default). */
    planOf,

    /** Meetings added before this (ISO) are hidden from the account by its plan's history; undefined: none are. */
    historySince: async (userId: string): Promise<string | undefined> => {
      const days = (await planOf(userId))?.limits.historyDays;
      return days == null ? undefined : new Date(deps.now().getTime() - days * DAY_MS).toISOString();
    },

    overview: async (userId: string): Promise<BillingOverview> => {
      const plan = await planOf(userId);
      const { meetings: meetingsThisMonth, seconds, month } = await usageOf(userId);
      const days = plan?.limits.historyDays;
      const hiddenMeetings = days == null ? 0 : await meetings.countAddedBefore(userId, new Date(deps.now().getTime() - days * DAY_MS));
      return {
        billing: payments,
        plan: plan
          ? { id: plan.id, name: PLANS[plan.id].name, source: plan.source, limits: { ...plan.limits, exportFormats: [...plan.limits.exportFormats] } }
          : null,
        usage: {
          hoursThisMonth: hours(seconds),
          meetingsThisMonth,
          periodStart: month.start.toISOString(),
          periodEnd: month.end.toISOString(),
          hiddenMeetings,
        },
      };
    },

    /** A new recording, upload or import: refused once the month's transcription hours are used up. */
    assertCanTranscribe: async (userId: string): Promise<void> => {
      const plan = await planOf(userId);
      const limit = plan?.limits.hoursPerMonth;
      if (!plan || limit == null) return;
      const { seconds, month } = await usageOf(userId);
      if (seconds < limit * 3600) return;
      const renews = month.end.toLocaleDateString('en-US', { month: 'long', day: 'numeric', timeZone: 'UTC' });
      throw refuse(
        plan,
        `Your ${PLANS[plan.id].name} plan includes ${limit} transcription hours a month and you have used ${hours(seconds)} this month, so nothing more can be recorded, uploaded or imported until ${renews}.` +
          upgradePath(
            plan.id,
            (l) => l.hoursPerMonth === null || l.hoursPerMonth > limit,
            (l) => (l.hoursPerMonth === null ? 'unlimited hours' : `${l.hoursPerMonth} hours a month`),
          ),
      );
    },

    /** A meeting listing `count` participants. */
    assertParticipants: async (userId: string, count: number): Promise<void> => {
      const plan = await planOf(userId);
      const limit = plan?.limits.participantsPerMeeting;
      if (!plan || limit == null || count <= limit) return;
      throw refuse(
        plan,
        `Your ${PLANS[plan.id].name} plan allows ${limit} participants per meeting; this meeting lists ${count}.` +
          upgradePath(
            plan.id,
            (l) => l.participantsPerMeeting === null || l.participantsPerMeeting >= count,
            () => 'unlimited participants',
          ),
      );
    },

    /** A meeting exported as a file of this format. */
    assertExport: async (userId: string, format: ExportFormat): Promise<void> => {
      const plan = await planOf(userId);
      if (!plan || plan.limits.exportFormats.includes(format)) return;
      const formats = list(plan.limits.exportFormats.map((f) => FORMAT_NAMES[f]));
      throw refuse(
        plan,
        `Your ${PLANS[plan.id].name} plan exports as ${formats} only; ${FORMAT_NAMES[format]} is not included.` +
          upgradePath(
            plan.id,
            (l) => l.exportFormats.includes(format),
            (l) =>
              l.exportFormats.length === PLANS.enterprise.limits.exportFormats.length
                ? 'all export formats'
                : `export as ${list(l.exportFormats.map((f) => FORMAT_NAMES[f]))}`,
          ),
      );
    },

    /** Why the live transcript is not for this account (said on the socket), or undefined. */
    liveRefusal: async (userId: string): Promise<string | undefined> => {
      const plan = await planOf(userId);
      if (!plan || plan.limits.liveTranscription) return undefined;
      return (
        `Real-time transcription is not included in your ${PLANS[plan.id].name} plan; the recording goes on and is transcribed once saved.` +
        upgradePath(
          plan.id,
          (l) => l.liveTranscription,
          () => 'real-time transcription',
        )
      );
    },

    /** Personal API tokens: made and used only with API access. */
    assertApiAccess: async (userId: string): Promise<void> => {
      const plan = await planOf(userId);
      if (!plan || plan.limits.apiAccess) return;
      throw refuse(
        plan,
        `API access is not included in your ${PLANS[plan.id].name} plan.` +
          upgradePath(
            plan.id,
            (l) => l.apiAccess,
            () => 'API access',
          ),
      );
    },

    /** Creating a team or inviting to one. */
    assertTeamManagement: async (userId: string): Promise<void> => {
      const plan = await planOf(userId);
      if (!plan || plan.limits.teamManagement) return;
      throw refuse(
        plan,
        `Team management (creating teams and inviting members) is not included in your ${PLANS[plan.id].name} plan.` +
          upgradePath(
            plan.id,
            (l) => l.teamManagement,
            () => 'team management',
          ),
      );
    },

    /** The administrator's `npm run plans`: assigns a plan (null takes it away). */
    assign: (userId: string, plan: PlanId | null) => assignPlan(db, userId, plan, deps.now()),
    assigned: (limit = 1000) => assignedPlans(db, limit),
  };
}
