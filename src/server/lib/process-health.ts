import { monitorEventLoopDelay } from 'node:perf_hooks';

/** How this process is doing, as GET /api/v1/status reports it for the operator. */
export type ProcessHealth = {
  role: 'all' | 'web' | 'worker';
  /** Event-loop delay since the process began serving, ms: how long a ready request could wait for the loop. */
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  rssBytes: number;
  uptimeSeconds: number;
};

/** nanoseconds → ms, to a tenth. */
const ms = (ns: number) => Math.round(ns / 1e5) / 10;

/**
 * Samples the event loop's delay (Node's histogram, 10 ms resolution, read without cost) from the
 * moment the process serves; `read()` answers it with the memory in use.
 */
export function watchProcessHealth(role: ProcessHealth['role']): { read: () => ProcessHealth; stop: () => void } {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  return {
    read: () => ({
      role,
      eventLoopDelayMs:
        histogram.count === 0 ? { p50: 0, p99: 0, max: 0 } : { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) },
      rssBytes: process.memoryUsage.rss(),
      uptimeSeconds: Math.round(process.uptime()),
    }),
    stop: () => histogram.disable(),
  };
}
