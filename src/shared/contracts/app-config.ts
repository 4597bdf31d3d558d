import { z } from 'zod/mini';

const host = z.nullable(z.string().check(z.maxLength(300)));

/**
 * What this installation connects to beyond itself. Each is false (or null) unless its operator
 * configured it: a payment provider (billing), an error-reporting collector, a usage-analytics
 * collector, an emotion-detection provider; the last three by host, so the screens that would
 * otherwise promise them say what is true here, and to whom.
 */
const InstallationSchema = z.object({
  billing: z.boolean(),
  errorReporting: z.boolean(),
  usageAnalytics: z.boolean(),
  errorReportingHost: host,
  usageAnalyticsHost: host,
  /** "Anonymous Emotional Analysis" sends anonymised transcript text to this host; null: computed on this server. */
  emotionProviderHost: host,
});

export type Installation = z.infer<typeof InstallationSchema>;

/** What the server hands the browser at /app-config.js before the app boots. Never secrets. */
export const PublicAppConfigSchema = z.object({
  /** The installation's anon key: a JWT with role anon, as supabase-js expects (spec §6). */
  anonKey: z.string().check(z.minLength(1)),
  /** Present when the app should talk to a different auth origin than the page's own. */
  authUrl: z.optional(z.string().check(z.url())),
  version: z.string(),
  installation: InstallationSchema,
});

export type PublicAppConfig = z.infer<typeof PublicAppConfigSchema>;

export { APP_CONFIG_GLOBAL } from './app-config-global.ts';
