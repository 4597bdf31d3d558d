import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';

/**
 * A local stand-in for an OpenTelemetry collector's OTLP/HTTP receiver (POST /v1/logs, the JSON
 * encoding of ExportLogsServiceRequest, gzip when so encoded). It keeps each log record with its
 * resource's attributes flattened to plain values, and answers as a collector does: `{}` on
 * success, 415 for a protobuf body it was not built to read, 400 for a body that is not an export
 * request, or as told: 503 with Retry-After, or no answer at all.
 */
type AnyValue = { stringValue?: string; boolValue?: boolean; intValue?: string | number; doubleValue?: number };
type KeyValue = { key: string; value?: AnyValue };
type ExportLogsRequest = {
  resourceLogs?: {
    resource?: { attributes?: KeyValue[] };
    scopeLogs?: { scope?: { name?: string }; logRecords?: { eventName?: string; body?: AnyValue; attributes?: KeyValue[]; timeUnixNano?: string }[] }[];
  }[];
};
export type ReceivedLogRecord = {
  eventName: string | undefined;
  body: unknown;
  scope: string | undefined;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
};
type Behaviour = 'ok' | 'unavailable' | 'stall';

const valueOf = (value: AnyValue | undefined): unknown =>
  value?.stringValue ?? value?.boolValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue)) ?? value?.doubleValue;
const attributesOf = (list: KeyValue[] | undefined): Record<string, unknown> => Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));

export async function startFakeOtlpCollector() {
  const records: ReceivedLogRecord[] = [];
  const requests: { headers: http.IncomingHttpHeaders; raw: string; status: number }[] = [];
  let behaviour: Behaviour = 'ok';

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = req.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(Buffer.concat(chunks)) : Buffer.concat(chunks);
      const request = { headers: req.headers, raw: body.toString('utf8'), status: 0 };
      requests.push(request);
      const answer = (status: number, json: unknown, headers: Record<string, string> = {}) => {
        request.status = status;
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(json));
      };
      if (req.method !== 'POST' || req.url !== '/v1/logs') return answer(404, { code: 5, message: 'not found' });
      if (behaviour === 'stall') return;
      if (behaviour === 'unavailable') return answer(503, { code: 14, message: 'unavailable' }, { 'retry-after': '30' });
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return answer(415, { code: 3, message: 'only JSON here' });
      let parsed: ExportLogsRequest;
      try {
        parsed = JSON.parse(request.raw) as ExportLogsRequest;
        if (!Array.isArray(parsed.resourceLogs)) throw new Error('no resourceLogs');
      } catch {
        return answer(400, { code: 3, message: 'not an ExportLogsServiceRequest' });
      }
      for (const resourceLogs of parsed.resourceLogs ?? []) {
        const resource = attributesOf(resourceLogs.resource?.attributes);
        for (const scopeLogs of resourceLogs.scopeLogs ?? [])
          for (const record of scopeLogs.logRecords ?? [])
            records.push({
              eventName: record.eventName,
              body: valueOf(record.body),
              scope: scopeLogs.scope?.name,
              attributes: attributesOf(record.attributes),
              resource,
            });
      }
      answer(200, {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    records,
    requests,
    behave(next: Behaviour) {
      behaviour = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeOtlpCollector = Awaited<ReturnType<typeof startFakeOtlpCollector>>;
