import { SeverityNumber } from '@opentelemetry/api-logs';
import { ExportResultCode } from '@opentelemetry/core';
import { JsonLogsSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider, type LogRecordExporter } from '@opentelemetry/sdk-logs';
import { outboundFetch, type OutboundPolicy } from '#server/lib/outbound/outbound-fetch.ts';

/**
 * Anonymous feature-usage events to the operator's OpenTelemetry collector, as OTLP/HTTP log records
 * (OpenTelemetry's event form: an `event.name` and attributes) through the official SDK's logger
 * provider and batch processor. What an event says: which feature (the API route as written, such
 * as `POST /api/v1/meetings/imports`), how it was called (the app or an API token), and Parley's
 * version. Never who, no ids, no content, no installation id: the collector counts uses.
 */
export type UsageEvents = {
  featureUsed: (feature: { route: string; client: 'app' | 'api-token' }) => void;
  flush: () => Promise<void>;
  close: () => Promise<void>;
};

export const FEATURE_USED_EVENT = 'parley.feature.used';

export function createUsageEvents(options: {
  endpoint: string;
  headers: Readonly<Record<string, string>>;
  version: string;
  policy: OutboundPolicy;
  /** A batch the collector refused or could not take: dropped, and said so once per batch. */
  onExportFailed: (error: unknown) => void;
}): UsageEvents {
  const exporter = createOtlpJsonLogExporter(`${options.endpoint}/v1/logs`, options.headers, options.policy, options.onExportFailed);
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ 'service.name': 'parley', 'service.version': options.version }),
    processors: [new BatchLogRecordProcessor({ exporter, scheduledDelayMillis: 1_000, exportTimeoutMillis: options.policy.timeoutMs ?? 10_000 })],
  });
  const logger = provider.getLogger('parley.feature-usage');
  return {
    featureUsed: ({ route, client }) => {
      logger.emit({
        eventName: FEATURE_USED_EVENT,
        severityNumber: SeverityNumber.INFO,
        severityText: 'INFO',
        body: 'feature used',
        attributes: { 'parley.feature': route, 'parley.client': client },
      });
    },
    flush: () => provider.forceFlush(),
    close: () => provider.shutdown(),
  };
}

/**
 * OTLP/HTTP with the JSON encoding (`@opentelemetry/otlp-transformer`'s serializer, the one the
 * official exporter uses), sent through the outbound guard rather than the exporter's own HTTP agent.
 */
function createOtlpJsonLogExporter(
  url: string,
  headers: Readonly<Record<string, string>>,
  policy: OutboundPolicy,
  onFailed: (error: unknown) => void,
): LogRecordExporter {
  let stopped = false;
  const inFlight = new Set<Promise<void>>();
  return {
    export(logs, done) {
      if (stopped) return done({ code: ExportResultCode.FAILED, error: new Error('the usage exporter is shut down') });
      const body = JsonLogsSerializer.serializeRequest(logs);
      if (!body) return done({ code: ExportResultCode.FAILED, error: new Error('usage events could not be serialised') });
      const sending = outboundFetch(url, { method: 'POST', body, headers: { ...headers, 'content-type': 'application/json' } }, policy).then(
        (response) => {
          if (response.ok) return done({ code: ExportResultCode.SUCCESS });
          const error = new Error(`the OpenTelemetry collector answered ${response.status}`);
          onFailed(error);
          done({ code: ExportResultCode.FAILED, error });
        },
        (error: unknown) => {
          onFailed(error);
          done({ code: ExportResultCode.FAILED, error: error instanceof Error ? error : new Error(String(error)) });
        },
      );
      inFlight.add(sending);
      void sending.finally(() => inFlight.delete(sending));
    },
    async forceFlush() {
      await Promise.allSettled([...inFlight]);
    },
    async shutdown() {
      stopped = true;
      await Promise.allSettled([...inFlight]);
    },
  };
}
