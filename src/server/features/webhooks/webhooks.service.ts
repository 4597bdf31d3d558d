import crypto from 'node:crypto';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { z } from 'zod';
import type { DomainEvent } from '#shared/contracts/events.ts';
import {
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_TEST_EVENT,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from '#shared/contracts/webhooks.ts';
import type { Db } from '#server/db/create-db.ts';
import type { JobQueue } from '#server/jobs/job-queue.ts';
import { AppError, notFound } from '#server/lib/app-error.ts';
import { bestEffort } from '#server/lib/best-effort.ts';
import { checkOutboundUrl, outboundFetch, OutboundError, type OutboundPolicy } from '#server/lib/outbound/outbound-fetch.ts';
import type { SecretBox } from '#server/lib/secret-box.ts';
import {
  countEndpoints,
  deleteEndpoint,
  deleteEndpointsOf,
  deliveriesOf,
  deliveryById,
  dueDeliveries,
  endpointById,
  endpointsForEvent,
  endpointsVisibleTo,
  insertDelivery,
  insertEndpoint,
  pruneDeliveries,
  updateDelivery,
  updateEndpoint,
  type DeliveryRow,
  type EndpointRow,
} from './webhooks.repository.ts';

/** The waits before each retry of a failed delivery: about a day in all, then it is failed. */
export const RETRY_SCHEDULE_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000] as const;
/** An endpoint whose every attempt has failed for this long is disabled and its owner told. */
const DISABLE_AFTER_MS = 3 * 24 * 3_600_000;
/** After a secret rotation, the old secret signs too for this long (receivers switch over meanwhile). */
const ROTATION_OVERLAP_MS = 24 * 3_600_000;
const SWEEP_MS = 5_000;
const DELIVERY_TIMEOUT_MS = 15_000;
const KEEP_DELIVERIES_MS = 30 * 24 * 3_600_000;
const LOG_LENGTH = 50;

export type WebhookTimings = {
  retryScheduleMs?: readonly number[];
  disableAfterMs?: number;
  rotationOverlapMs?: number;
  sweepMs?: number;
  timeoutMs?: number;
};

type WebhooksDeps = {
  db: Db;
  jobs: JobQueue;
  secrets: SecretBox;
  /** OUTBOUND_ALLOW_PRIVATE_NETWORKS. */
  allowPrivateNetworks: boolean;
  teams: { assertManager: (userId: string, teamId: string) => Promise<void>; managedTeamIdsOf: (userId: string) => Promise<string[]> };
  /** Tells an endpoint's owner it was disabled (the bell). */
  notifyDisabled: (userId: string, input: { title: string; body: string; link: string; dedupeKey: string }) => Promise<void>;
  publicUrl: string;
  now: () => Date;
  log: Logger;
  timings?: WebhookTimings;
};

export type WebhooksService = ReturnType<typeof createWebhooksService>;

const SECRET_CONTEXT = (endpointId: string) => `webhook-secret:${endpointId}`;
const newSecret = () => `whsec_${crypto.randomBytes(32).toString('base64')}`;

const parseEvents = (text: string): WebhookEventType[] => {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? WEBHOOK_EVENT_TYPES.filter((t) => parsed.includes(t)) : [];
  } catch {
    return []; // an unreadable list receives nothing rather than everything
  }
};

const presentEndpoint = (row: EndpointRow, now: Date): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: parseEvents(row.events),
  teamId: row.team_id,
  enabled: row.enabled === 1,
  disabledReason: row.disabled_reason,
  previousSecretExpiresAt: row.previous_secret_expires_at && Date.parse(row.previous_secret_expires_at) > now.getTime() ? row.previous_secret_expires_at : null,
  createdAt: row.created_at,
});

const presentDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  eventType: row.event_type,
  status: row.status,
  attempts: Number(row.attempts),
  responseCode: row.response_code === null ? null : Number(row.response_code),
  error: row.error,
  createdAt: row.created_at,
  lastAttemptAt: row.last_attempt_at,
  nextAttemptAt: row.next_attempt_at,
});

const DeliveryJob = z.object({ deliveryId: z.string().max(100) });

/**
 * Outgoing webhooks by the Standard Webhooks spec. The `webhooks` subscriber turns each domain event
 * into one delivery per endpoint that wants it (idempotent by event id); a job sends each delivery,
 * signed with the endpoint's secret (and the previous one during a rotation's overlap), through the
 * outbound guard. A failed attempt (no answer in time, or not 2xx) is tried again after 5 s, 5 min,
 * 30 min, 2 h, 5 h and 10 h; an endpoint whose attempts all fail for 3 days is disabled and its
 * owner told. A sweep queues what is due (retries, and deliveries a crash left unqueued).
 */
export function createWebhooksService(deps: WebhooksDeps) {
  const { db } = deps;
  const schedule = deps.timings?.retryScheduleMs ?? RETRY_SCHEDULE_MS;
  const disableAfterMs = deps.timings?.disableAfterMs ?? DISABLE_AFTER_MS;
  const overlapMs = deps.timings?.rotationOverlapMs ?? ROTATION_OVERLAP_MS;
  const policy: OutboundPolicy = {
    allowPrivateNetworks: deps.allowPrivateNetworks,
    timeoutMs: deps.timings?.timeoutMs ?? DELIVERY_TIMEOUT_MS,
    maxResponseBytes: 64 * 1024,
    // Standard Webhooks: a redirect is an answer that is not 2xx, never followed with the signed body.
    maxRedirects: 0,
  };
  const nowIso = () => deps.now().toISOString();
  // A path of the app, as notifications link (the bell opens it in place).
  const settingsLink = '/settings?tab=developers';

  /** The endpoint if the caller may manage it: their own, or their team's as its owner or an admin. Anything else reads as absent. */
  const manageable = async (userId: string, id: string): Promise<EndpointRow> => {
    const row = await endpointById(db, id);
    if (!row) throw notFound('Webhook endpoint');
    if (row.team_id === null) {
      if (row.user_id !== userId) throw notFound('Webhook endpoint');
    } else if (!(await deps.teams.managedTeamIdsOf(userId)).includes(row.team_id)) throw notFound('Webhook endpoint');
    return row;
  };

  const signatures = (row: EndpointRow, msgId: string, at: Date, body: string): string => {
    const current = deps.secrets.open(row.secret, SECRET_CONTEXT(row.id)).plaintext;
    const signed = [new Webhook(current).sign(msgId, at, body)];
    if (row.previous_secret && row.previous_secret_expires_at && Date.parse(row.previous_secret_expires_at) > at.getTime()) {
      signed.push(new Webhook(deps.secrets.open(row.previous_secret, SECRET_CONTEXT(row.id)).plaintext).sign(msgId, at, body));
    }
    return signed.join(' ');
  };

  const disable = async (row: EndpointRow, reason: string) => {
    await updateEndpoint(db, row.id, { enabled: 0, disabled_reason: reason });
    await bestEffort(
      'webhook-disabled-notice',
      () =>
        deps.notifyDisabled(row.user_id, {
          title: 'Webhook endpoint disabled',
          body: `${row.url} — ${reason} Fix it, then enable it again in Settings › Developers.`,
          link: settingsLink,
          dedupeKey: `webhook-disabled:${row.id}:${row.failing_since ?? ''}`,
        }),
      deps.log,
      { endpointId: row.id },
    );
  };

  /** One attempt of a delivery: sent, and its outcome recorded (a failure schedules the next try, or ends it). */
  const attempt = async (deliveryId: string): Promise<void> => {
    const delivery = await deliveryById(db, deliveryId);
    if (!delivery || delivery.status === 'succeeded' || delivery.status === 'failed') return;
    if (delivery.next_attempt_at && Date.parse(delivery.next_attempt_at) > deps.now().getTime()) return;
    const endpoint = await endpointById(db, delivery.endpoint_id);
    if (!endpoint) return;
    const attempts = Number(delivery.attempts) + 1;
    if (endpoint.enabled !== 1) {
      await updateDelivery(db, delivery.id, { status: 'failed', attempts: attempts - 1, error: 'The endpoint is disabled.', next_attempt_at: null });
      return;
    }
    const at = deps.now();
    let responseCode: number | null = null;
    let error: string | null = null;
    try {
      const response = await outboundFetch(
        endpoint.url,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Parley-Webhooks/1',
            'webhook-id': delivery.id,
            'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
            'webhook-signature': signatures(endpoint, delivery.id, at, delivery.body),
          },
          body: delivery.body,
        },
        policy,
      );
      responseCode = response.status;
      if (response.status < 200 || response.status > 299) error = `The endpoint answered HTTP ${response.status}.`;
    } catch (failure) {
      if (!(failure instanceof OutboundError)) throw failure;
      error = failure.reason === 'too_many_redirects' ? 'The endpoint answered with a redirect; webhooks are not redirected.' : failure.message;
    }
    const finished = deps.now();
    if (error === null) {
      await updateDelivery(db, delivery.id, {
        status: 'succeeded',
        attempts,
        response_code: responseCode,
        error: null,
        last_attempt_at: finished.toISOString(),
        next_attempt_at: null,
      });
      if (endpoint.failing_since !== null) await updateEndpoint(db, endpoint.id, { failing_since: null });
      return;
    }
    const wait = schedule[attempts - 1];
    await updateDelivery(db, delivery.id, {
      status: wait === undefined ? 'failed' : 'retrying',
      attempts,
      response_code: responseCode,
      error,
      last_attempt_at: finished.toISOString(),
      next_attempt_at: wait === undefined ? null : new Date(finished.getTime() + wait).toISOString(),
    });
    const failingSince = endpoint.failing_since ?? at.toISOString();
    if (endpoint.failing_since === null) await updateEndpoint(db, endpoint.id, { failing_since: failingSince });
    if (finished.getTime() - Date.parse(failingSince) >= disableAfterMs && wait === undefined) {
      await disable({ ...endpoint, failing_since: failingSince }, 'Every delivery to it has failed for 3 days.');
    }
  };

  const deliveryJobs = deps.jobs.define<z.infer<typeof DeliveryJob>>({
    name: 'webhook-delivery',
    label: 'webhook delivery',
    payload: DeliveryJob,
    stages: [],
    keyOf: (payload) => payload.deliveryId,
    // Each waits on a remote server at most DELIVERY_TIMEOUT_MS.
    concurrency: 4,
    // Only a failure of Parley's own (the database) reaches the queue's retries; the endpoint's are scheduled above.
    maxAttempts: 3,
    retryDelayMs: 5_000,
    classify: (error) => ({ retryable: true, message: `The webhook could not be delivered: ${error instanceof Error ? error.message : String(error)}` }),
    run: async ({ deliveryId }) => attempt(deliveryId),
    onSettled: async () => undefined,
  });

  const createDelivery = async (endpoint: EndpointRow, event: { id: string | null; type: string; occurredAt: string; data: unknown }) => {
    const row: DeliveryRow = {
      id: `msg_${crypto.randomUUID().replaceAll('-', '')}`,
      endpoint_id: endpoint.id,
      event_id: event.id,
      event_type: event.type,
      body: JSON.stringify({ type: event.type, timestamp: event.occurredAt, data: event.data }),
      status: 'pending',
      attempts: 0,
      response_code: null,
      error: null,
      created_at: nowIso(),
      last_attempt_at: null,
      next_attempt_at: nowIso(),
    };
    if (!(await insertDelivery(db, row))) return undefined;
    await deliveryJobs.enqueue({ deliveryId: row.id });
    return row;
  };

  const meetingData = (event: DomainEvent) => {
    const meeting = event.subject.type === 'meeting';
    return {
      ...(meeting ? { meetingId: event.subject.id } : {}),
      teamId: event.teamId,
      ...event.payload,
      ...(meeting && event.type !== 'meeting.deleted' ? { url: `${deps.publicUrl}/meetings/${encodeURIComponent(event.subject.id)}` } : {}),
    };
  };

  let sweepTimer: ReturnType<typeof setInterval> | undefined;
  const sweep = async () => {
    for (const id of await dueDeliveries(db, nowIso(), 200)) await deliveryJobs.enqueue({ deliveryId: id });
    await pruneDeliveries(db, new Date(deps.now().getTime() - KEEP_DELIVERIES_MS).toISOString());
  };

  return {
    create: async (
      userId: string,
      input: { url: string; events: WebhookEventType[]; teamId?: string | null | undefined; description?: string | undefined },
    ) => {
      const url = checkOutboundUrl(input.url, policy).toString();
      const teamId = input.teamId ?? null;
      if (teamId !== null) await deps.teams.assertManager(userId, teamId);
      if ((await countEndpoints(db, { userId, teamId })) >= MAX_WEBHOOK_ENDPOINTS)
        throw new AppError('CONFLICT', `There are ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints already, the most allowed. Delete one first.`);
      const id = crypto.randomUUID();
      const secret = newSecret();
      await insertEndpoint(db, {
        id,
        user_id: userId,
        team_id: teamId,
        url,
        description: input.description ?? '',
        events: JSON.stringify([...new Set(input.events)]),
        secret: deps.secrets.seal(secret, SECRET_CONTEXT(id)),
        previous_secret: null,
        previous_secret_expires_at: null,
        enabled: 1,
        disabled_reason: null,
        failing_since: null,
        created_at: nowIso(),
      });
      return { id, secret };
    },

    list: async (userId: string): Promise<WebhookEndpoint[]> => {
      const rows = await endpointsVisibleTo(db, userId, await deps.teams.managedTeamIdsOf(userId));
      return rows.map((row) => presentEndpoint(row, deps.now()));
    },

    update: async (
      userId: string,
      id: string,
      patch: { url?: string | undefined; events?: WebhookEventType[] | undefined; description?: string | undefined; enabled?: boolean | undefined },
    ): Promise<WebhookEndpoint> => {
      const row = await manageable(userId, id);
      const changes: Parameters<typeof updateEndpoint>[2] = {};
      if (patch.url !== undefined) changes.url = checkOutboundUrl(patch.url, policy).toString();
      if (patch.events !== undefined) changes.events = JSON.stringify([...new Set(patch.events)]);
      if (patch.description !== undefined) changes.description = patch.description;
      if (patch.enabled === true) Object.assign(changes, { enabled: 1, disabled_reason: null, failing_since: null });
      if (patch.enabled === false) Object.assign(changes, { enabled: 0, disabled_reason: 'Disabled by hand.' });
      if (Object.keys(changes).length > 0) await updateEndpoint(db, id, changes);
      return presentEndpoint({ ...row, ...changes }, deps.now());
    },

    remove: async (userId: string, id: string): Promise<void> => {
      await manageable(userId, id);
      await deleteEndpoint(db, id);
    },

    rotateSecret: async (userId: string, id: string): Promise<{ secret: string; previousSecretExpiresAt: string }> => {
      const row = await manageable(userId, id);
      const secret = newSecret();
      const previousSecretExpiresAt = new Date(deps.now().getTime() + overlapMs).toISOString();
      const previous = deps.secrets.open(row.secret, SECRET_CONTEXT(id)).plaintext;
      await updateEndpoint(db, id, {
        secret: deps.secrets.seal(secret, SECRET_CONTEXT(id)),
        previous_secret: deps.secrets.seal(previous, SECRET_CONTEXT(id)),
        previous_secret_expires_at: previousSecretExpiresAt,
      });
      return { secret, previousSecretExpiresAt };
    },

    sendTest: async (userId: string, id: string): Promise<WebhookDelivery> => {
      const row = await manageable(userId, id);
      if (row.enabled !== 1) throw new AppError('CONFLICT', 'This endpoint is disabled. Enable it first.');
      const delivery = await createDelivery(row, {
        id: null,
        type: WEBHOOK_TEST_EVENT,
        occurredAt: nowIso(),
        data: { message: 'A test event from Parley: your endpoint receives and verifies webhooks.', endpointId: row.id },
      });
      return presentDelivery(delivery!);
    },

    deliveries: async (userId: string, id: string): Promise<WebhookDelivery[]> => {
      await manageable(userId, id);
      return (await deliveriesOf(db, id, LOG_LENGTH)).map(presentDelivery);
    },

    redeliver: async (userId: string, id: string, deliveryId: string): Promise<WebhookDelivery> => {
      const row = await manageable(userId, id);
      const delivery = await deliveryById(db, deliveryId);
      if (!delivery || delivery.endpoint_id !== row.id) throw notFound('Delivery');
      if (row.enabled !== 1) throw new AppError('CONFLICT', 'This endpoint is disabled. Enable it first.');
      // A redelivery starts the retry schedule afresh, its first try at once (same webhook-id: receivers may drop a repeat they already have).
      const patch = { status: 'pending' as const, next_attempt_at: nowIso(), attempts: 0, error: null };
      await updateDelivery(db, delivery.id, patch);
      await deliveryJobs.enqueue({ deliveryId: delivery.id });
      return presentDelivery({ ...delivery, ...patch });
    },

    /** The `webhooks` subscriber: one delivery per endpoint that wants the event (repeats insert nothing). */
    fanOut: async (event: DomainEvent): Promise<void> => {
      if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(event.type)) return;
      for (const endpoint of await endpointsForEvent(db, event.ownerId, event.teamId)) {
        if (!parseEvents(endpoint.events).includes(event.type as WebhookEventType)) continue;
        await createDelivery(endpoint, { id: event.id, type: event.type, occurredAt: event.occurredAt, data: meetingData(event) });
      }
    },

    /** Delete Account: the endpoints the person added, their own and their teams'. */
    removeFor: async (userId: string): Promise<void> => deleteEndpointsOf(db, userId),

    start: () => {
      sweepTimer = setInterval(() => void bestEffort('webhook-sweep', sweep(), deps.log), deps.timings?.sweepMs ?? SWEEP_MS);
      sweepTimer.unref();
    },
    stop: () => clearInterval(sweepTimer),
  };
}
