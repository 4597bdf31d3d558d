import { z } from 'zod/mini';

/**
 * What this installation connects to beyond itself. Each is false unless its operator configured it:
 * a payment provider (billing), an error-reporting collector, a usage-analytics collector. The web
 * app says, on the screens that would otherwise promise them, what is true here.
 */
const InstallationSchema = z.object({
  billing: z.boolean(),
  errorReporting: z.boolean(),
  usageAnalytics: z.boolean(),
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
