import type { FastifyBaseLogger as Logger } from 'fastify';
import type { ClientErrorReport } from '#shared/contracts/error-reports.ts';
import type { PrivacySettings } from '#shared/contracts/settings.ts';
import type { Config } from '#server/config.ts';
import { failedBestEffort } from '#server/lib/best-effort.ts';
import { createErrorReporter } from './error-reports.ts';
import { createUsageEvents } from './usage-events.ts';

/**
 * What leaves the installation about how Parley runs for a person, and only with their consent:
 * their errors to the operator's error-reporting service while Settings › Privacy "Error Reporting"
 * is on, and which features they use, anonymously, to the operator's OpenTelemetry collector while
 * "Anonymized Feature Usage" is on. The switch is read when each report or event is made, so turning
 * it off stops the next one; with no service configured nothing is made at all.
 */
export type TelemetryService = ReturnType<typeof createTelemetryService>;

type TelemetryDeps = {
  config: Config['telemetry'];
  version: string;
  /** The person's Settings › Privacy choices (the spec's defaults until they save their own). */
  privacyOf: (userId: string) => Promise<PrivacySettings>;
  log: Logger;
};

const FLUSH_MS = 5_000;

export function createTelemetryService(deps: TelemetryDeps) {
  const { config, log } = deps;
  // The operator chose these endpoints (often on the same host or network as Parley): private
  // addresses are allowed, cloud metadata never; the guard still checks every hop and bounds the time.
  const policy = { allowPrivateNetworks: true, timeoutMs: config.timeoutMs, maxResponseBytes: 64 * 1024 };
  const errors = config.errors && createErrorReporter({ dsn: config.errors.dsn, environment: config.errors.environment, release: deps.version, policy });
  const usage =
    config.usage &&
    createUsageEvents({
      endpoint: config.usage.endpoint,
      headers: config.usage.headers,
      version: deps.version,
      policy,
      onExportFailed: (error) => failedBestEffort('usage-export', error, log),
    });
  /** Decisions under way (the person's switch being read), so flush() can wait for them. */
  const pending = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    pending.add(work);
    void work.finally(() => pending.delete(work)).catch(() => undefined);
    return work;
  };

  const allows = async (userId: string, choice: 'errorReporting' | 'anonymizedUsage'): Promise<boolean> => {
    try {
      return (await deps.privacyOf(userId))[choice];
    } catch (error) {
      failedBestEffort('telemetry-consent', error, log);
      return false; // unknown is not consent
    }
  };

  return {
    /** A 5xx answered to the person's request (`where`: the method and route, never the URL with its ids). */
    requestFailed: (userId: string, error: unknown, where: string): void => {
      if (!errors) return;
      void track(
        allows(userId, 'errorReporting').then((allowed) => {
          if (allowed) errors.captureServerError(error, { kind: 'request', where });
        }),
      );
    },
    /** A job of the person's that failed for good (its payload names its owner). */
    jobFailed: (queue: string, payload: unknown, error: unknown): void => {
      const userId = ownerOfPayload(payload);
      if (!errors || !userId) return;
      void track(
        allows(userId, 'errorReporting').then((allowed) => {
          if (allowed) errors.captureServerError(error, { kind: 'job', where: `job ${queue}` });
        }),
      );
    },
    /** An error of the web app the person sent; whether it went on to the operator's service. */
    clientError: async (userId: string, report: ClientErrorReport): Promise<{ sent: boolean }> => {
      if (!errors) return { sent: false };
      const allowed = await track(allows(userId, 'errorReporting'));
      if (allowed) errors.captureClientError(report);
      return { sent: allowed };
    },
    /** A feature the person used (an API request that succeeded): an anonymous event, when they allow it. */
    featureUsed: (userId: string, feature: { route: string; client: 'app' | 'api-token' }): void => {
      if (!usage) return;
      void track(
        allows(userId, 'anonymizedUsage').then((allowed) => {
          if (allowed) usage.featureUsed(feature);
        }),
      );
    },
    /** Waits for the decisions under way and the reports and events they made to be sent (tests, shutdown). */
    flush: async (): Promise<void> => {
      await Promise.allSettled([...pending]);
      await Promise.all([errors?.flush(FLUSH_MS), usage?.flush()]);
    },
    close: async (): Promise<void> => {
      await Promise.allSettled([...pending]);
      await Promise.all([errors?.close(FLUSH_MS), usage?.close()]);
    },
  };
}

/** Whose job it is: the meeting jobs carry their owner, the export its person. */
function ownerOfPayload(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const { ownerId, userId } = payload as { ownerId?: unknown; userId?: unknown };
  return typeof ownerId === 'string' ? ownerId : typeof userId === 'string' ? userId : undefined;
}
