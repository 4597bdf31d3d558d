import { queryOptions, useQuery } from '@tanstack/react-query';
import { billingEndpoints, type PlanLimits } from '#shared/contracts/billing.ts';
import type { ExportFormat } from '#shared/contracts/meetings.ts';
import { api } from './api-client.ts';
import { BILLING_KEY } from './query-keys.ts';

/**
 * The signed-in person's plan, its limits and this month's usage (GET /api/v1/billing): Settings ›
 * Billing, the dashboard's usage card and the sidebar's plan box read the same cache entry.
 */
export const myPlanOptions = () =>
  queryOptions({
    queryKey: [...BILLING_KEY, 'overview'] as const,
    queryFn: ({ signal }) => api(billingEndpoints.overview, {}, { signal }),
  });

/** `awaitSubscription`: read again every 2 s until a subscription shows (back from Checkout, before Stripe's webhook). */
export const useMyPlan = (options: { awaitSubscription?: boolean } = {}) =>
  useQuery({
    ...myPlanOptions(),
    refetchInterval: (query) => (options.awaitSubscription && query.state.data?.billing && !query.state.data.subscription ? 2000 : false),
  });

const FORMAT_NAMES: Record<ExportFormat, string> = { txt: 'text', md: 'Markdown', docx: 'DOCX', pdf: 'PDF', srt: 'SRT', vtt: 'WebVTT' };

/** A plan's limits, one line each, as Settings › Billing lists them. */
export function planLimitLines(limits: PlanLimits): string[] {
  const history = limits.historyDays === null ? 'Unlimited history' : limits.historyDays === 365 ? '1-year history' : `${limits.historyDays}-day history`;
  return [
    limits.hoursPerMonth === null ? 'Unlimited transcription hours' : `${limits.hoursPerMonth} hours transcription per month`,
    limits.participantsPerMeeting === null ? 'Unlimited participants' : `${limits.participantsPerMeeting} participants per meeting`,
    `Export as ${limits.exportFormats.map((f) => FORMAT_NAMES[f]).join(', ')}`,
    history,
    limits.liveTranscription ? 'Real-time transcription' : 'No real-time transcription',
    limits.apiAccess ? 'API access' : 'No API access',
    limits.teamManagement ? 'Team management' : 'No team management',
    limits.customVocabulary ? 'Custom vocabulary' : 'No custom vocabulary',
  ];
}

/** "2.5 of 5 hours" against a limit, "2.5 hours" without one. */
export const hoursUsedText = (used: number, limit: number | null) => (limit === null ? `${used} hours` : `${used} of ${limit} hours`);
