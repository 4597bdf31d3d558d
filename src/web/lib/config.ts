import { APP_CONFIG_GLOBAL } from '#shared/contracts/app-config-global.ts';
import type { Installation, PublicAppConfig } from '#shared/contracts/app-config.ts';

/**
 * The installation's public settings, set by /app-config.js before the app's module loads
 * (index.html). Checked by hand rather than with zod to keep zod off the landing page's critical
 * path; a missing config is a deployment error worth a clear message.
 */
let cached: PublicAppConfig | undefined;

export function appConfig(): PublicAppConfig {
  if (cached) return cached;
  const raw = rawConfig();
  if (!raw || typeof raw.anonKey !== 'string' || raw.anonKey === '') {
    throw new Error('Parley could not load its configuration (/app-config.js). Is the Parley server running and serving this page?');
  }
  cached = {
    anonKey: raw.anonKey,
    version: String(raw.version ?? ''),
    installation: installationOf(raw),
    ...(typeof raw.authUrl === 'string' ? { authUrl: raw.authUrl } : {}),
  };
  return cached;
}

/**
 * What this installation connects to beyond itself (billing, error reporting, usage analytics, an
 * emotion provider), for
 * the screens that say what is true here. Read without the anon key the API needs, so public pages
 * and the settings screens show it whatever else the config holds. Only an explicit `true` turns one
 * on: without a config (the landing page the build prerendered has none, and no build can configure
 * billing yet) the installation is self-hosted, with every feature included and nothing collected.
 */
export function installation(): Installation {
  return installationOf(rawConfig());
}

type RawConfig = Partial<Omit<PublicAppConfig, 'installation'>> & { installation?: Partial<Record<keyof Installation, unknown>> };

function rawConfig(): RawConfig | undefined {
  if (typeof window === 'undefined') return undefined; // the build's prerender of the landing page
  return (window as unknown as Record<string, unknown>)[APP_CONFIG_GLOBAL] as RawConfig | undefined;
}

function installationOf(raw: RawConfig | undefined): Installation {
  const given = raw?.installation;
  const host = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  return {
    billing: given?.billing === true,
    errorReporting: given?.errorReporting === true,
    usageAnalytics: given?.usageAnalytics === true,
    errorReportingHost: host(given?.errorReportingHost),
    usageAnalyticsHost: host(given?.usageAnalyticsHost),
    emotionProviderHost: host(given?.emotionProviderHost),
  };
}
