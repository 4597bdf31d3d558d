import type autocannon from 'autocannon';

export type Row = { name: string; value: string; note?: string };

export function printSection(title: string, rows: Row[]): void {
  console.log(`\n## ${title}`);
  const width = Math.max(...rows.map((r) => r.name.length));
  for (const row of rows) console.log(`  ${row.name.padEnd(width)}  ${row.value}${row.note ? `  (${row.note})` : ''}`);
}

/** One line per load test: throughput and latency percentiles, plus non-2xx counts so errors show. */
export function describeLoad(result: autocannon.Result): string {
  const non2xx = result.non2xx + result.errors + result.timeouts;
  return (
    `${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
    `${result.requests.total} requests` +
    (non2xx > 0 ? `, ${non2xx} failed` : '')
  );
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
