import type { FastifyBaseLogger } from 'fastify';

/**
 * Work that may fail without failing what it follows: a progress write, a realtime nudge, an email
 * after the thing it announces is done, an hourly sweep that runs again next hour. Each has a
 * stable name here, with the log message of its failure. A failure is never silent: it is logged
 * at warn with `{ effort: name, err }` and counted per name, and GET /api/v1/status shows the counts
 * (`bestEffortFailures`) so an operator sees which hand-offs fail and how often.
 */
export const BEST_EFFORTS = {
  'job-progress': "a job's stage was not recorded: its progress bar shows the last one recorded",
  'job-progress-clear': "a job that could not be queued kept its 'queued' stage",
  'job-lease': "a running job's lease was not renewed: another worker may take it up once the lease runs out",
  'job-settlement': "a job's outcome was not recorded: it runs again once its lease runs out",
  'job-lane': 'a job lane stopped on an error: it starts again after its poll interval',
  'auto-models': 'fetching the recommended models failed',
  'data-export-sweep': 'the sweep of expired data exports failed: it runs again within the hour',
  'data-export-email': 'the data export is ready, but its email could not be sent',
  'upload-sweep': 'the upload expiry sweep failed: it runs again within the hour',
  'auto-delete-sweep': 'the auto-delete sweep failed: it runs again within the hour',
  'team-realtime': "a team's members were not told it changed: their next request reads it",
  'meeting-team-realtime': 'a team was not told a shared meeting changed: their next request reads it',
  'ask-embeddings-queue': 'Ask could not queue embeddings',
  'ask-embeddings': 'Ask: the embeddings server failed; answering from the search index alone',
  'ask-model': 'Ask: the notes LLM failed; answering with the passages',
  'ask-rewrite': 'Ask: the notes LLM could not rewrite the question; searching it as asked',
  'ask-rerank': 'Ask: the notes LLM could not re-rank the passages; keeping the retrieval order',
  'notes-progress': 'notes progress not recorded',
  'notes-follow-ups': 'follow-ups of open action items and superseded decisions not found',
  'digest-queue': 'the Team Activity digest job could not be queued: it is queued again within the hour',
  'speaker-diarization': 'sherpa-onnx diarization failed on a recording: speakers told apart by clustering',
  'voice-naming': 'known voices could not be matched on a new transcript: its speakers are stored unnamed',
  'live-paused-time': 'a live session’s paused time was not counted',
  'upload-lock': "an upload lock's lease could not be renewed or released in Redis: it runs out by itself",
  'realtime-notify': 'realtime event not sent to the other processes',
  'realtime-reconnect': 'the realtime channel could not reconnect to the database',
  'socket-auth': 'a socket could not be authenticated for a reason other than its token',
  'event-enqueue': 'event deliveries were not queued after their commit: the next sweep queues them',
  'event-sweep': 'the sweep of pending event deliveries failed: it runs again within the minute',
  'calendar-revoke': 'a disconnected Google Calendar grant was not revoked at Google: it stays until the person removes it in their Google account',
  'webhook-sweep': 'the sweep of due webhook deliveries failed: it runs again within seconds',
  'webhook-disabled-notice': 'a webhook endpoint was disabled, but its owner could not be told in the app',
  'calendar-sweep': 'the refresh of connected calendars failed: it runs again within the minute',
  'calendar-reminders': 'the meeting reminders due were not raised: the calendar sweep tries again within the minute',
  'teams-sync-sweep': 'queuing the Teams meeting syncs that are due failed: it runs again within the minute',
  'slack-revoke': "a disconnected Slack app's token could not be revoked at Slack: it was forgotten here (remove the app in Slack to end it)",
  'notes-deleted-check': 'a notes run could not check whether its meeting still exists: it checks again in a second',
  'telemetry-consent': "a person's Privacy choices could not be read: their error report or usage event was not sent",
  'usage-export': 'usage events could not be sent to the OpenTelemetry collector: this batch is dropped',
} as const satisfies Record<string, string>;

export type BestEffortName = keyof typeof BEST_EFFORTS;
type WarnLog = Pick<FastifyBaseLogger, 'warn'>;

/** Failures since this process started (each process counts its own). */
const failures = new Map<BestEffortName, number>();

/** Logs and counts a best-effort failure caught elsewhere. */
export function failedBestEffort(name: BestEffortName, error: unknown, log: WarnLog, context: Record<string, unknown> = {}): void {
  failures.set(name, (failures.get(name) ?? 0) + 1);
  log.warn({ ...context, effort: name, err: error }, BEST_EFFORTS[name]);
}

/** Runs `work`; a failure is logged and counted under `name`, and the result is then undefined. */
export async function bestEffort<T>(
  name: BestEffortName,
  work: Promise<T> | (() => Promise<T>),
  log: WarnLog,
  context: Record<string, unknown> = {},
): Promise<T | undefined> {
  try {
    return await (typeof work === 'function' ? work() : work);
  } catch (error) {
    failedBestEffort(name, error, log, context);
    return undefined;
  }
}

/** Every best effort by name with its failures in this process (0 when none), for /status. */
export function bestEffortFailures(): Record<BestEffortName, number> {
  return Object.fromEntries(Object.keys(BEST_EFFORTS).map((name) => [name, failures.get(name as BestEffortName) ?? 0])) as Record<BestEffortName, number>;
}
