import type { FastifyBaseLogger as Logger } from 'fastify';
import type { ChatConnection, ConnectChatBody, ShareToSlackResponse } from '#shared/contracts/chat-integrations.ts';
import type { DomainEvent } from '#shared/contracts/events.ts';
import type { Db } from '#server/db/create-db.ts';
import { AppError, notFound } from '#server/lib/app-error.ts';
import {
  ChannelPostError,
  createChatChannels,
  hostOnly,
  scopeKeyOf,
  type ChannelPoster,
  type OutboundRequest,
  type TeamRoles,
} from '#server/lib/chat-channels/chat-channels.ts';
import type { NotesDigest } from '#server/lib/chat-channels/notes-digest.ts';
import { checkOutboundUrl } from '#server/lib/outbound/outbound-fetch.ts';
import type { SecretBox } from '#server/lib/secret-box.ts';
import { slackNotesMessage, slackTestMessage, slackTranscriptMessage, type SlackMessage } from './slack-message.ts';
import { slackStore } from './slack.repository.ts';

export type SlackService = ReturnType<typeof createSlackService>;

type SlackDeps = {
  db: Db;
  secrets: SecretBox;
  teams: TeamRoles;
  namesOf: (userIds: string[]) => Promise<Map<string, string>>;
  /** A meeting's notes for a post, read as this person may read it (undefined: not theirs, or gone). */
  digestOf: (userId: string, meetingId: string, options: { shareLink: boolean }) => Promise<NotesDigest | undefined>;
  outbound: OutboundRequest;
  /**
   * OUTBOUND_ALLOW_PRIVATE_NETWORKS: the operator allows internal services, so any http(s) URL is
   * taken (a self-hosted Slack-compatible service, a local test receiver); the outbound guard still
   * checks each request.
   */
  allowAnyWebhookUrl: boolean;
  now: () => Date;
  log: Logger;
};

/** Slack's incoming webhook (and workflow trigger) hosts, commercial and GovSlack. */
const SLACK_WEBHOOK = /^https:\/\/hooks\.slack(-gov)?\.com\/(services|triggers|workflows)\/[A-Za-z0-9/_-]+$/;

export const SLACK_WEBHOOK_HELP =
  'Paste a Slack incoming webhook URL (https://hooks.slack.com/services/…): in Slack, open your workspace’s apps, create an app “From scratch”, turn on Incoming Webhooks, “Add New Webhook to Workspace”, pick the channel and copy the URL.';

export function checkSlackWebhookUrl(text: string, allowAny: boolean): { destination: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AppError('VALIDATION_FAILED', `That is not a URL. ${SLACK_WEBHOOK_HELP}`);
  }
  if (url.username || url.password) throw new AppError('VALIDATION_FAILED', 'A webhook URL must not carry a user name or password.');
  if (allowAny ? url.protocol !== 'https:' && url.protocol !== 'http:' : !SLACK_WEBHOOK.test(`${url.origin}${url.pathname}`) || url.search !== '')
    throw new AppError('VALIDATION_FAILED', `That is not a Slack incoming webhook URL. ${SLACK_WEBHOOK_HELP}`);
  // A literal private address is refused now, a name that resolves to one as each post connects.
  checkOutboundUrl(url, { allowPrivateNetworks: allowAny });
  return { destination: hostOnly(url) };
}

/** What Slack's answer to a webhook post means for the person, and what to do about it. */
export function slackWebhookProblem(status: number, body: string): string {
  const reason = body.trim().slice(0, 80);
  switch (reason) {
    case 'no_service':
    case 'no_team':
    case 'team_disabled':
    case 'invalid_token':
      return `Slack says this webhook no longer works (${reason}): it was removed or its app uninstalled. Create a new incoming webhook in Slack and connect it again.`;
    case 'channel_is_archived':
      return 'The Slack channel is archived (channel_is_archived). Unarchive it, or connect a webhook for another channel.';
    case 'channel_not_found':
      return 'The webhook’s Slack channel no longer exists (channel_not_found). Connect a webhook for another channel.';
    case 'action_prohibited':
    case 'posting_to_general_channel_denied':
      return `A Slack workspace admin does not allow this post (${reason}). Ask them, or connect a webhook for another channel.`;
    case 'invalid_payload':
      return 'Slack refused the message as malformed (invalid_payload). This is a bug in Parley: please report it.';
  }
  if (status === 429) return 'Slack is limiting posts to this webhook (HTTP 429). It will be tried again.';
  if (status >= 500) return `Slack answered HTTP ${status}. It will be tried again.`;
  return `Slack refused the post (HTTP ${status}${reason ? `: ${reason}` : ''}). Check the webhook in Slack, or connect a new one.`;
}

export function createSlackService(deps: SlackDeps) {
  const post: ChannelPoster<SlackMessage> = async ({ webhookUrl }, message, signal) => {
    if (!webhookUrl) throw new ChannelPostError('This Slack connection has no webhook URL: connect Slack again.');
    let answer: Awaited<ReturnType<OutboundRequest>>;
    try {
      answer = await deps.outbound(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(message),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      throw new ChannelPostError(`Slack could not be reached: ${error instanceof Error ? error.message : String(error)}`);
    }
    const body = await answer.text().catch(() => '');
    if (answer.status < 200 || answer.status > 299) throw new ChannelPostError(slackWebhookProblem(answer.status, body));
  };

  const channels = createChatChannels<SlackMessage>({
    provider: 'Slack',
    table: 'slack_connections',
    store: slackStore(deps.db),
    secrets: deps.secrets,
    teams: deps.teams,
    checkWebhookUrl: (url) => checkSlackWebhookUrl(url, deps.allowAnyWebhookUrl),
    post,
    testMessage: slackTestMessage,
    namesOf: deps.namesOf,
    now: deps.now,
    log: deps.log,
  });

  return {
    state: (userId: string, teamId: string | undefined): Promise<ChatConnection> => channels.state(userId, teamId),
    connect: (userId: string, body: ConnectChatBody): Promise<ChatConnection> => channels.connect(userId, body),
    disconnect: (userId: string, teamId: string | undefined): Promise<void> => channels.disconnect(userId, teamId),
    test: (userId: string, teamId: string | undefined): Promise<ChatConnection> => channels.test(userId, teamId),

    /** notes.ready: the owner's channel and the meeting's team's, each once. */
    notesReady: async (event: Extract<DomainEvent, { type: 'notes.ready' }>, signal: AbortSignal): Promise<void> => {
      const ownerId = event.ownerId;
      if (!ownerId) return;
      const plain = await deps.digestOf(ownerId, event.subject.id, { shareLink: false });
      if (!plain) return;
      const scopes = [scopeKeyOf(ownerId, undefined), ...(plain.teamId ? [scopeKeyOf(ownerId, plain.teamId)] : [])];
      await channels.deliver(
        event.id,
        scopes,
        async (row) => slackNotesMessage(row.share_links === 1 ? ((await deps.digestOf(ownerId, event.subject.id, { shareLink: true })) ?? plain) : plain),
        signal,
      );
    },

    /** "Share to Slack" from a meeting page: the notes now, and the transcript when asked. */
    share: async (userId: string, meetingId: string, options: { teamId?: string | undefined; transcript: boolean }): Promise<ShareToSlackResponse> => {
      const row = await channels.channelFor(userId, options.teamId);
      const digest = await deps.digestOf(userId, meetingId, { shareLink: row.share_links === 1 });
      if (!digest) throw notFound('Meeting');
      const shaped = options.transcript ? slackTranscriptMessage(digest) : { message: slackNotesMessage(digest, 'Shared from Parley'), truncated: false };
      try {
        await channels.postTo(row, shaped.message);
      } catch (error) {
        if (error instanceof ChannelPostError) throw new AppError('CONFLICT', error.message);
        throw error;
      }
      return { ok: true, transcript: options.transcript ? 'blocks' : 'none', transcriptTruncated: shaped.truncated };
    },

    removeFor: (userId: string): Promise<void> => channels.removeFor(userId),
  };
}
