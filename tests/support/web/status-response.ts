import type { StatusResponse } from '#shared/contracts/status.ts';

/** A sound installation on the basic offline engine, with no better command to offer: tests change what they need. */
export const STATUS: StatusResponse = {
  transcription: {
    setting: 'auto',
    inUse: 'pocketsphinx',
    engines: [{ name: 'pocketsphinx', detail: 'offline', available: true, reason: null, inUse: true }],
    models: [],
    voiceActivityDetection: { available: true, source: 'bundled', reason: null },
    queue: { queued: 0, running: 0 },
    autoModels: { state: 'off', message: null, downloads: [] },
    betterTranscripts: null,
  },
  notes: {
    setting: 'auto',
    inUse: 'local',
    engines: [{ name: 'local', detail: 'offline', available: true, reason: null, inUse: true }],
    queue: { queued: 0, running: 0 },
  },
  database: { ok: true, reason: null, checkedAt: '2026-11-24T09:00:00.000Z' },
  bestEffortFailures: {},
  eventDeliveries: { pending: 0, dead: 0 },
  process: { role: 'all', eventLoopDelayMs: { p50: 10.1, p99: 12.4, max: 30.2 }, rssBytes: 180_000_000, uptimeSeconds: 3600 },
};
