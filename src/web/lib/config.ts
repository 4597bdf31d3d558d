import { APP_CONFIG_GLOBAL } from '#shared/contracts/app-config-global.ts';
import type { PublicAppConfig } from '#shared/contracts/app-config.ts';

/**
 * The installation's public settings, set by /app-config.js before the app's module loads
 * (index.html). Checked by hand rather than with zod to keep zod off the landing page's critical
 * path; a missing config is a deployment error worth a clear message.
 */
let cached: PublicAppConfig | undefined;

export function appConfig(): PublicAppConfig {
  if (cached) return cached;
  const raw = (window as unknown as Record<string, unknown>)[APP_CONFIG_GLOBAL] as Partial<PublicAppConfig> | undefined;
  if (!raw || typeof raw.anonKey !== 'string' || raw.anonKey === '') {
    throw new Error('Parley could not load its configuration (/app-config.js). Is the Parley server running and serving this page?');
  }
  cached = { anonKey: raw.anonKey, version: String(raw.version ?? ''), ...(typeof raw.authUrl === 'string' ? { authUrl: raw.authUrl } : {}) };
  return cached;
}
