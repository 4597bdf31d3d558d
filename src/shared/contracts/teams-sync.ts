import { z } from 'zod/mini';
import { defineEndpoint } from './endpoint.ts';
import { QUEUE_STAGES, stageSchema } from './job-progress.ts';

/**
 * Settings › Connected Accounts › Microsoft Teams, "sync meeting recordings": a Microsoft account
 * connected through the Microsoft identity platform (OAuth 2.0 code flow with PKCE), whose Teams
 * meetings' transcripts Parley imports every hour and on "Sync now".
 */

/** What a sync run reports, in order (the queue adds 'queued' and 'waiting to retry'). */
export const TEAMS_SYNC_RUN_STAGES = ['finding meetings', 'importing'] as const;
export type TeamsSyncRunStage = (typeof TEAMS_SYNC_RUN_STAGES)[number];
export const TEAMS_SYNC_STAGES = [...QUEUE_STAGES, ...TEAMS_SYNC_RUN_STAGES] as const;

const count = z.number().check(z.int(), z.nonnegative());

export const TeamsSyncStateSchema = z.object({
  /** Offered when the server has MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET. */
  available: z.boolean(),
  /** The redirect URI to register with the app (shown in Settings when not available). */
  redirectUri: z.string(),
  connected: z.boolean(),
  /** Who is connected: the name and address of the account's calendar owner. */
  account: z.nullable(z.string()),
  /** Microsoft no longer accepts Parley's access: connect again. */
  needsReconnect: z.boolean(),
  lastSyncedAt: z.nullable(z.string()),
  /** Why the last sync failed or what it could not import, with what to do; null after a clean one. */
  lastError: z.nullable(z.string()),
  /** Meetings imported from Teams so far, and by the last sync. */
  importedCount: count,
  lastImported: count,
  /** A sync waiting or under way: its stage and the meeting being imported of how many. */
  sync: z.nullable(
    z.object({
      state: z.enum(['queued', 'running']),
      stage: stageSchema(TEAMS_SYNC_STAGES),
      part: z.nullable(count),
      parts: z.nullable(count),
    }),
  ),
});
export type TeamsSyncState = z.infer<typeof TeamsSyncStateSchema>;

export const TeamsSyncStartSchema = z.object({ authorizationUrl: z.string() });

/** What Microsoft sent the browser back with (the redirect URI's query). */
export const TeamsSyncFinishBodySchema = z.object({
  state: z.string().check(z.maxLength(4_096)),
  code: z.optional(z.string().check(z.maxLength(8_192))),
  error: z.optional(z.string().check(z.maxLength(200))),
});

export const teamsSyncEndpoints = {
  get: defineEndpoint({
    method: 'GET',
    path: '/api/v1/integrations/teams/account',
    response: TeamsSyncStateSchema,
    tag: 'integrations',
    summary: 'The caller’s Microsoft account connection and its Teams meeting sync',
  }),
  start: defineEndpoint({
    method: 'POST',
    path: '/api/v1/integrations/teams/account/start',
    response: TeamsSyncStartSchema,
    tag: 'integrations',
    summary: 'Connect Microsoft account, step one: the authorization URL to open (OAuth 2.0 with PKCE)',
  }),
  finish: defineEndpoint({
    method: 'POST',
    path: '/api/v1/integrations/teams/account/finish',
    body: TeamsSyncFinishBodySchema,
    response: TeamsSyncStateSchema,
    tag: 'integrations',
    summary: 'Connect Microsoft account, step two: what Microsoft sent back; connects and queues a first sync',
  }),
  sync: defineEndpoint({
    method: 'POST',
    path: '/api/v1/integrations/teams/account/sync',
    response: TeamsSyncStateSchema,
    status: 202,
    tag: 'integrations',
    summary: 'Sync now: queues a sync of the caller’s Teams meetings',
  }),
  disconnect: defineEndpoint({
    method: 'DELETE',
    path: '/api/v1/integrations/teams/account',
    response: TeamsSyncStateSchema,
    tag: 'integrations',
    summary: 'Forgets the Microsoft account’s tokens; imported meetings stay',
  }),
};
