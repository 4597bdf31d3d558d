import { z } from 'zod/mini';

/** What the server hands the browser at /app-config.js before the app boots. Never secrets. */
export const PublicAppConfigSchema = z.object({
  /** The installation's anon key: a JWT with role anon, as supabase-js expects (spec §6). */
  anonKey: z.string().check(z.minLength(1)),
  /** Present when the app should talk to a different auth origin than the page's own. */
  authUrl: z.optional(z.string().check(z.url())),
  version: z.string(),
});

export type PublicAppConfig = z.infer<typeof PublicAppConfigSchema>;

export { APP_CONFIG_GLOBAL } from './app-config-global.ts';
