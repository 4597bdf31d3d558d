import { vi } from 'vitest';
import { APP_CONFIG_GLOBAL } from '#shared/contracts/app-config-global.ts';
import type { Installation, PublicAppConfig } from '#shared/contracts/app-config.ts';

/** The self-hosted default every installation has until billing or a collector is configured. */
export const SELF_HOSTED: Installation = {
  billing: false,
  errorReporting: false,
  usageAnalytics: false,
  errorReportingHost: null,
  usageAnalyticsHost: null,
  emotionProviderHost: null,
};

/**
 * For jsdom tests: what /app-config.js would have set before the app loaded, with this installation.
 * Undone by `vi.unstubAllGlobals()`.
 */
export function stubAppConfig(installation: Partial<Installation> = {}): void {
  const config: PublicAppConfig = { anonKey: 'anon-key', version: 'test', installation: { ...SELF_HOSTED, ...installation } };
  vi.stubGlobal(APP_CONFIG_GLOBAL, config);
}
