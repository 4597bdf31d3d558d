import crypto from 'node:crypto';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { ChatConnection, ConnectChatBody } from '#shared/contracts/chat-integrations.ts';
import { AppError, notFound } from '../app-error.ts';
import type { Db } from '../../db/create-db.ts';
import type { SecretBox } from '../secret-box.ts';
import type { NotesDigest } from './notes-digest.ts';

/**
 * The rules Slack and Microsoft Teams channels share: a person's own channel or a team's (its owner
 * and admins manage it, its members see it), the webhook URL sealed and shown back only as its host,
 * each notes.ready event posted to each channel once, and the last failure kept with what to do about
 * it for the Settings card. The features give their own table (a ChannelStore), URL rules and
 * message shapes.
 */

/** A channel's row as each feature's table keeps it. */
export type ChannelRow = {
  id: string;
  scope_key: string;
  user_id: string;
  team_id: string | null;
  method: 'webhook' | 'app';
  webhook_url: string | null;
  destination: string;
  bot_token: string | null;
  channel_id: string | null;
  notes_ready: number;
  share_links: number;
  last_post_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  created_at: string;
  updated_at: string;
};

/** The feature's repository over its own tables. */
export type ChannelStore = {
  byScope: (scopeKey: string) => Promise<ChannelRow | undefined>;
  /** Inserts, or replaces the row of the same scope (a new URL replaces the old one). */
  save: (row: ChannelRow) => Promise<void>;
  update: (id: string, patch: Partial<Omit<ChannelRow, 'id' | 'scope_key'>>) => Promise<void>;
  removeScope: (scopeKey: string) => Promise<boolean>;
  /** Delete All Data / Delete Account: the person's own channel and the ones they connected. */
  removeUser: (userId: string) => Promise<void>;
  ofUser: (userId: string) => Promise<ChannelRow[]>;
  wasPosted: (connectionId: string, eventId: string) => Promise<boolean>;
  markPosted: (connectionId: string, eventId: string, at: string) => Promise<void>;
};

/** A post the provider refused or never answered: `message` says it in words a person can act on. */
export class ChannelPostError extends Error {}

/** What a feature gives to post one message through a channel (through the outbound URL guard). */
export type ChannelPoster<M> = (
  channel: { row: ChannelRow; webhookUrl: string | null; botToken: string | null },
  message: M,
  signal?: AbortSignal,
) => Promise<void>;

export type TeamRoles = { roleOf: (userId: string, teamId: string) => Promise<'owner' | 'admin' | 'member' | undefined> };

/** What every chat feature (Slack, Microsoft Teams) is given in deps.ts: one object serves both. */
export type ChatFeatureDeps = {
  db: Db;
  secrets: SecretBox;
  teams: TeamRoles;
  namesOf: (userIds: string[]) => Promise<Map<string, string>>;
  /** The person who connected a channel is told when a post failed for good (an in-app notification). */
  tell: (userId: string, notice: { title: string; body: string; link: string; dedupeKey: string }) => Promise<void>;
  /** A meeting's notes for a post, read as this person may read it (undefined: not theirs, or gone). */
  digestOf: (userId: string, meetingId: string, options: { shareLink: boolean }) => Promise<NotesDigest | undefined>;
  outbound: OutboundRequest;
  /**
   * OUTBOUND_ALLOW_PRIVATE_NETWORKS: the operator allows internal services, so any http(s) URL is
   * taken (a self-hosted service, a local test receiver); the outbound guard still checks each request.
   */
  allowAnyWebhookUrl: boolean;
  now: () => Date;
  log: Logger;
};

type ChatChannelsDeps<M> = {
  /** The service's name in messages ("Slack", "Microsoft Teams"). */
  provider: string;
  /** Sealing context prefix: `<table>` (the column and row id are added). */
  table: string;
  store: ChannelStore;
  secrets: SecretBox;
  teams: TeamRoles;
  /** Checks a webhook URL's shape; answers what the person is shown instead of it (its host and "…"). */
  checkWebhookUrl: (url: string) => { destination: string };
  post: ChannelPoster<M>;
  /** The test message Settings › "Send test" posts. */
  testMessage: () => M;
  namesOf: (userIds: string[]) => Promise<Map<string, string>>;
  /** The person who connected a channel is told when a post failed for good (its event's last try). */
  tell?: (userId: string, notice: { title: string; body: string; link: string; dedupeKey: string }) => Promise<void>;
  /** Before a channel is removed (disconnect, a new URL): the feature revokes what it can at the provider. */
  beforeRemove?: (channel: { row: ChannelRow; webhookUrl: string | null; botToken: string | null }) => Promise<void>;
  now: () => Date;
  log: Logger;
};

const teamScopeKey = (teamId: string): string => `team:${teamId}`;
export const scopeKeyOf = (userId: string, teamId: string | null | undefined): string => (teamId ? teamScopeKey(teamId) : `user:${userId}`);

const MAX_ERROR_LENGTH = 500;

export function createChatChannels<M>(deps: ChatChannelsDeps<M>) {
  const { store, secrets, provider } = deps;
  const nowIso = () => deps.now().toISOString();
  const sealContext = (row: { id: string }, column: string) => `${deps.table}.${column}:${row.id}`;

  /** Reading a team's channel takes membership (else 404); changing it takes owner or admin (else 403). */
  const checkScope = async (userId: string, teamId: string | undefined, change: boolean): Promise<string> => {
    if (!teamId) return scopeKeyOf(userId, undefined);
    const role = await deps.teams.roleOf(userId, teamId);
    if (!role) throw notFound('Team');
    if (change && role === 'member') throw new AppError('FORBIDDEN', `Only the team’s owner and admins can change its ${provider} channel.`);
    return scopeKeyOf(userId, teamId);
  };

  const present = async (row: ChannelRow | undefined, teamId: string | undefined): Promise<ChatConnection> => {
    if (!row)
      return {
        teamId: teamId ?? null,
        connected: false,
        method: null,
        destination: null,
        connectedBy: null,
        connectedAt: null,
        notesReady: true,
        shareLinks: false,
        lastPostAt: null,
        lastError: null,
        lastErrorAt: null,
      };
    const names = await deps.namesOf([row.user_id]);
    return {
      teamId: row.team_id,
      connected: true,
      method: row.method,
      destination: row.destination,
      connectedBy: names.get(row.user_id) ?? null,
      connectedAt: row.created_at,
      notesReady: row.notes_ready === 1,
      shareLinks: row.share_links === 1,
      lastPostAt: row.last_post_at,
      lastError: row.last_error,
      lastErrorAt: row.last_error_at,
    };
  };

  const open = (row: ChannelRow) => ({
    row,
    webhookUrl: row.webhook_url === null ? null : secrets.open(row.webhook_url, sealContext(row, 'webhook_url')).plaintext,
    botToken: row.bot_token === null ? null : secrets.open(row.bot_token, sealContext(row, 'bot_token')).plaintext,
  });

  /** Posts and records the outcome on the channel; a ChannelPostError's words go to the Settings card. */
  const postTo = async (row: ChannelRow, message: M, signal?: AbortSignal): Promise<void> => {
    try {
      await deps.post(open(row), message, signal);
    } catch (error) {
      const words = error instanceof ChannelPostError ? error.message : `The post to ${provider} failed unexpectedly.`;
      if (!(error instanceof ChannelPostError)) deps.log.error({ err: error, provider }, 'chat channel post failed');
      await store.update(row.id, { last_error: words.slice(0, MAX_ERROR_LENGTH), last_error_at: nowIso() });
      throw error;
    }
    await store.update(row.id, { last_post_at: nowIso(), last_error: null, last_error_at: null });
  };

  return {
    state: async (userId: string, teamId: string | undefined): Promise<ChatConnection> =>
      present(await store.byScope(await checkScope(userId, teamId, false)), teamId),

    connect: async (userId: string, body: ConnectChatBody): Promise<ChatConnection> => {
      const scopeKey = await checkScope(userId, body.teamId, true);
      const existing = await store.byScope(scopeKey);
      const at = nowIso();
      if (body.webhookUrl !== undefined) {
        const { destination } = deps.checkWebhookUrl(body.webhookUrl);
        if (existing) await deps.beforeRemove?.(open(existing));
        const id = crypto.randomUUID();
        await store.save({
          id,
          scope_key: scopeKey,
          user_id: userId,
          team_id: body.teamId ?? null,
          method: 'webhook',
          webhook_url: secrets.seal(body.webhookUrl, sealContext({ id }, 'webhook_url')),
          destination,
          bot_token: null,
          channel_id: null,
          notes_ready: (body.notesReady ?? (existing ? existing.notes_ready === 1 : true)) ? 1 : 0,
          share_links: (body.shareLinks ?? existing?.share_links === 1) ? 1 : 0,
          last_post_at: null,
          last_error: null,
          last_error_at: null,
          created_at: at,
          updated_at: at,
        });
      } else {
        if (!existing) throw new AppError('VALIDATION_FAILED', `Paste the ${provider} webhook URL to connect.`);
        await store.update(existing.id, {
          ...(body.notesReady === undefined ? {} : { notes_ready: body.notesReady ? 1 : 0 }),
          ...(body.shareLinks === undefined ? {} : { share_links: body.shareLinks ? 1 : 0 }),
          updated_at: at,
        });
      }
      return present(await store.byScope(scopeKey), body.teamId);
    },

    disconnect: async (userId: string, teamId: string | undefined): Promise<void> => {
      const scopeKey = await checkScope(userId, teamId, true);
      const existing = await store.byScope(scopeKey);
      if (existing) await deps.beforeRemove?.(open(existing));
      await store.removeScope(scopeKey);
    },

    /** An app's bot token (OAuth): stored sealed, replacing the scope's channel; the channel is chosen next. */
    connectApp: async (userId: string, teamId: string | undefined, app: { botToken: string; destination: string }): Promise<ChatConnection> => {
      const scopeKey = await checkScope(userId, teamId, true);
      const existing = await store.byScope(scopeKey);
      if (existing) await deps.beforeRemove?.(open(existing));
      const id = crypto.randomUUID();
      const at = nowIso();
      await store.save({
        id,
        scope_key: scopeKey,
        user_id: userId,
        team_id: teamId ?? null,
        method: 'app',
        webhook_url: null,
        destination: app.destination,
        bot_token: secrets.seal(app.botToken, sealContext({ id }, 'bot_token')),
        channel_id: null,
        notes_ready: existing ? existing.notes_ready : 1,
        share_links: existing ? existing.share_links : 0,
        last_post_at: null,
        last_error: null,
        last_error_at: null,
        created_at: at,
        updated_at: at,
      });
      return present(await store.byScope(scopeKey), teamId);
    },

    /** The app's channel the person picked. */
    setChannel: async (userId: string, teamId: string | undefined, channel: { id: string; destination: string }): Promise<ChatConnection> => {
      const scopeKey = await checkScope(userId, teamId, true);
      const row = await store.byScope(scopeKey);
      if (row?.method !== 'app') throw new AppError('CONFLICT', `Add ${provider} first.`);
      await store.update(row.id, { channel_id: channel.id, destination: channel.destination, last_error: null, last_error_at: null, updated_at: nowIso() });
      return present(await store.byScope(scopeKey), teamId);
    },

    /** The scope's channel for a change (owner or admin for a team's), opened. */
    openForChange: async (userId: string, teamId: string | undefined) => {
      const row = await store.byScope(await checkScope(userId, teamId, true));
      return row && open(row);
    },

    /** Settings › "Send test": the outcome is on the answer (lastPostAt, or lastError with the fix). */
    test: async (userId: string, teamId: string | undefined): Promise<ChatConnection> => {
      const scopeKey = await checkScope(userId, teamId, true);
      const row = await store.byScope(scopeKey);
      if (!row) throw new AppError('CONFLICT', `Connect ${provider} first.`);
      try {
        await postTo(row, deps.testMessage());
      } catch (error) {
        if (!(error instanceof ChannelPostError)) throw error;
      }
      return present(await store.byScope(scopeKey), teamId);
    },

    /** The channel a person may post to on demand: theirs, or a team's they belong to. */
    channelFor: async (userId: string, teamId: string | undefined): Promise<ChannelRow> => {
      const row = await store.byScope(await checkScope(userId, teamId, false));
      if (!row) throw new AppError('CONFLICT', `Connect ${provider} in Settings › Connected Accounts first.`);
      return row;
    },
    postTo,
    open,

    /**
     * One event to the channels of these scopes that want notes, each once (by event id): a channel
     * that fails keeps its error and the others still get theirs; the failure is then thrown for the
     * event delivery to retry (the channels already posted to are skipped next time).
     */
    deliver: async (
      eventId: string,
      scopeKeys: string[],
      message: (row: ChannelRow) => Promise<M>,
      context: { signal?: AbortSignal | undefined; final?: boolean },
    ): Promise<void> => {
      let failure: unknown;
      for (const scopeKey of new Set(scopeKeys)) {
        const row = await store.byScope(scopeKey);
        if (!row || row.notes_ready !== 1 || (await store.wasPosted(row.id, eventId))) continue;
        try {
          await postTo(row, await message(row), context.signal);
          await store.markPosted(row.id, eventId, nowIso());
        } catch (error) {
          failure ??= error;
          if (context.final && error instanceof ChannelPostError)
            await deps.tell?.(row.user_id, {
              title: `Meeting notes could not be posted to ${provider}`,
              body: error.message,
              link: '/settings?tab=profile',
              dedupeKey: `chat-failed:${row.id}:${eventId}`,
            });
        }
      }
      if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
    },

    removeFor: async (userId: string): Promise<void> => {
      for (const row of await store.ofUser(userId)) await deps.beforeRemove?.(open(row));
      await store.removeUser(userId);
    },

    /** A deleted team's channel (its sealed URL or token): nobody can reach it any more. */
    teamDeleted: async (teamId: string): Promise<void> => {
      const scopeKey = teamScopeKey(teamId);
      const row = await store.byScope(scopeKey);
      if (!row) return;
      await deps.beforeRemove?.(open(row));
      await store.removeScope(scopeKey);
    },
  };
}

/**
 * One outbound HTTP request: deps.ts gives `outboundFetch` (src/server/lib/outbound), the guard every
 * request to another service goes through (http(s) only, no credentials, private addresses refused
 * unless allowed, checked again as the connection opens, time and size capped). It rejects with an
 * Error whose message a person can read.
 */
export type OutboundRequest = (
  url: string,
  init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string | Uint8Array; signal?: AbortSignal },
) => Promise<{ status: number; headers: Headers; text: () => Promise<string> }>;

/** `hooks.slack.com/…`: what a person is shown of a secret URL. */
export const hostOnly = (url: URL): string => `${url.host}/…`;
