import type { ChatConnection, ConnectChatBody, ShareToSlackResponse, SlackApp, SlackChannel } from '#shared/contracts/chat-integrations.ts';
import type { DomainEvent } from '#shared/contracts/events.ts';
import { AppError, notFound } from '#server/lib/app-error.ts';
import {
  ChannelPostError,
  createChatChannels,
  hostOnly,
  scopeKeyOf,
  type ChannelPoster,
  type ChatFeatureDeps,
  type OutboundRequest,
} from '#server/lib/chat-channels/chat-channels.ts';
import { formatMoment } from '#server/lib/chat-channels/notes-digest.ts';
import { bestEffort } from '#server/lib/best-effort.ts';
import { OAuthError, type OAuthClient } from '#server/lib/oauth/oauth-client.ts';
import { checkOutboundUrl } from '#server/lib/outbound/outbound-fetch.ts';
import { slackNotesMessage, slackTestMessage, slackTranscriptMessage, type SlackMessage } from './slack-message.ts';
import { slackStore } from './slack.repository.ts';
import { retryAfterOf, slackApiProblem, type SlackClients } from './slack-app.ts';

export type SlackService = ReturnType<typeof createSlackService>;

type SlackDeps = ChatFeatureDeps & {
  /** "Add to Slack", when the operator configured a Slack app (SLACK_CLIENT_ID/SLACK_CLIENT_SECRET). */
  app: { clients: SlackClients; oauth: OAuthClient } | undefined;
  /** Where Slack sends the browser back (the operator registers it with the app). */
  redirectUri: string;
};

const MAX_CHANNELS = 1000;
/** A Retry-After this short is waited once; a longer one fails the post for the event delivery to retry. */
const MAX_RATE_LIMIT_WAIT_S = 5;

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
  /** One Web API call; a short rate limit is waited out once, every failure worded for the person. */
  const callSlack = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      const wait = retryAfterOf(error);
      if (wait === undefined || wait > MAX_RATE_LIMIT_WAIT_S) throw new ChannelPostError(slackApiProblem(error));
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      try {
        return await work();
      } catch (again) {
        throw new ChannelPostError(slackApiProblem(again));
      }
    }
  };

  const post: ChannelPoster<SlackMessage> = async ({ row, webhookUrl, botToken }, message, signal) => {
    if (row.method === 'app') {
      if (!deps.app || !botToken) throw new ChannelPostError('Add to Slack is no longer set up on this server: connect Slack with a webhook URL instead.');
      if (!row.channel_id) throw new ChannelPostError('Pick the Slack channel to post to in Settings › Connected Accounts.');
      const client = deps.app.clients(botToken);
      await callSlack(() => client.chat.postMessage({ channel: row.channel_id ?? '', text: message.text, blocks: message.blocks }));
      return;
    }
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

  const requireApp = () => {
    if (!deps.app)
      throw new AppError(
        'CONFLICT',
        'Add to Slack is not set up on this server: its operator sets SLACK_CLIENT_ID and SLACK_CLIENT_SECRET. A webhook URL works without it.',
      );
    return deps.app;
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
    tell: deps.tell,
    // Disconnecting (or replacing) the app revokes its token at Slack (auth.revoke) when it can.
    beforeRemove: async ({ row, botToken }) => {
      if (row.method !== 'app' || !botToken || !deps.app) return;
      const client = deps.app.clients(botToken);
      await bestEffort('slack-revoke', client.auth.revoke({}), deps.log);
    },
    now: deps.now,
    log: deps.log,
  });

  const service = {
    state: (userId: string, teamId: string | undefined): Promise<ChatConnection> => channels.state(userId, teamId),
    connect: (userId: string, body: ConnectChatBody): Promise<ChatConnection> => channels.connect(userId, body),
    disconnect: (userId: string, teamId: string | undefined): Promise<void> => channels.disconnect(userId, teamId),
    test: (userId: string, teamId: string | undefined): Promise<ChatConnection> => channels.test(userId, teamId),

    /** notes.ready: the owner's channel and the meeting's team's, each once. */
    notesReady: async (event: Extract<DomainEvent, { type: 'notes.ready' }>, context: { signal: AbortSignal; final: boolean }): Promise<void> => {
      const ownerId = event.ownerId;
      if (!ownerId) return;
      const plain = await deps.digestOf(ownerId, event.subject.id, { shareLink: false });
      if (!plain) return;
      const scopes = [scopeKeyOf(ownerId, undefined), ...(plain.teamId ? [scopeKeyOf(ownerId, plain.teamId)] : [])];
      await channels.deliver(
        event.id,
        scopes,
        async (row) => slackNotesMessage(row.share_links === 1 ? ((await deps.digestOf(ownerId, event.subject.id, { shareLink: true })) ?? plain) : plain),
        context,
      );
    },

    /** "Share to Slack" from a meeting page: the notes now, and the transcript when asked (a file through the app, else text blocks). */
    share: async (userId: string, meetingId: string, options: { teamId?: string | undefined; transcript: boolean }): Promise<ShareToSlackResponse> => {
      const row = await channels.channelFor(userId, options.teamId);
      const digest = await deps.digestOf(userId, meetingId, { shareLink: row.share_links === 1 });
      if (!digest) throw notFound('Meeting');
      const asFile = options.transcript && row.method === 'app';
      const shaped =
        options.transcript && !asFile ? slackTranscriptMessage(digest) : { message: slackNotesMessage(digest, 'Shared from Parley'), truncated: false };
      try {
        await channels.postTo(row, shaped.message);
        if (asFile) {
          const { botToken } = channels.open(row);
          const client = requireApp().clients(botToken ?? '');
          const content = digest.transcript.map((s) => `[${formatMoment(s.startMs)}] ${s.speaker}: ${s.text}`).join('\n');
          await callSlack(() =>
            client.files.uploadV2({
              channel_id: row.channel_id ?? '',
              content: content || '(The transcript is empty.)',
              filename: `${digest.title.replace(/[\\/:*?"<>|]+/g, ' ').trim() || 'Transcript'}.txt`,
              title: `Transcript: ${digest.title}`,
            }),
          );
        }
      } catch (error) {
        if (error instanceof ChannelPostError) throw new AppError('CONFLICT', error.message);
        throw error;
      }
      return { ok: true, transcript: options.transcript ? (asFile ? 'file' : 'blocks') : 'none', transcriptTruncated: shaped.truncated };
    },

    /** Whether Add to Slack is set up here, and the redirect URI the operator registers. */
    app: (): SlackApp => ({ available: deps.app !== undefined, redirectUri: deps.redirectUri }),

    oauthStart: async (userId: string, teamId: string | undefined): Promise<{ authorizationUrl: string }> => {
      const app = requireApp();
      // Checks the caller may change this channel before sending them to Slack.
      await channels.state(userId, teamId);
      await channels.openForChange(userId, teamId);
      return { authorizationUrl: app.oauth.start({ userId }).authorizationUrl };
    },

    /** Slack sent the browser back: the code becomes the bot token (sealed); the channel is picked next. */
    oauthFinish: async (userId: string, body: { callback: string; teamId?: string | undefined }): Promise<ChatConnection> => {
      const app = requireApp();
      await channels.openForChange(userId, body.teamId);
      let tokens;
      try {
        tokens = await app.oauth.finish({ userId, callback: new URLSearchParams(body.callback.replace(/^\?/, '')) });
      } catch (error) {
        if (error instanceof OAuthError) throw new AppError(error.kind === 'unreachable' ? 'ENGINE_UNAVAILABLE' : 'VALIDATION_FAILED', error.message);
        throw error;
      }
      const team = tokens.raw.team as { name?: unknown } | undefined;
      const workspace = typeof team?.name === 'string' ? team.name.slice(0, 100) : 'Slack';
      return channels.connectApp(userId, body.teamId, { botToken: tokens.accessToken, destination: `${workspace} (pick a channel)` });
    },

    /** The channels the app may post to: conversations.list, every page (a bounded number). */
    channels: async (userId: string, teamId: string | undefined): Promise<SlackChannel[]> => {
      const app = requireApp();
      const opened = await channels.openForChange(userId, teamId);
      if (opened?.row.method !== 'app' || !opened.botToken) throw new AppError('CONFLICT', 'Add to Slack first.');
      const client = app.clients(opened.botToken);
      const found: SlackChannel[] = [];
      let cursor: string | undefined;
      try {
        do {
          const page = await callSlack(() =>
            client.conversations.list({ types: 'public_channel,private_channel', exclude_archived: true, limit: 200, ...(cursor ? { cursor } : {}) }),
          );
          for (const c of page.channels ?? []) if (c.id && c.name) found.push({ id: c.id, name: c.name, isPrivate: c.is_private === true });
          cursor = page.response_metadata?.next_cursor || undefined;
        } while (cursor && found.length < MAX_CHANNELS);
      } catch (error) {
        if (error instanceof ChannelPostError) throw new AppError('CONFLICT', error.message);
        throw error;
      }
      return found.slice(0, MAX_CHANNELS).sort((a, b) => a.name.localeCompare(b.name));
    },

    chooseChannel: async (userId: string, body: { channelId: string; teamId?: string | undefined }): Promise<ChatConnection> => {
      const listed = await service.channels(userId, body.teamId);
      const channel = listed.find((c) => c.id === body.channelId);
      if (!channel) throw new AppError('VALIDATION_FAILED', 'That channel is not one the Parley app can see: pick one from the list.');
      const workspace = ((await channels.openForChange(userId, body.teamId))?.row.destination ?? '').replace(/ \(pick a channel\)$|^#[^ ]+ in /g, '');
      return channels.setChannel(userId, body.teamId, { id: channel.id, destination: `#${channel.name}${workspace ? ` in ${workspace}` : ''}` });
    },

    removeFor: (userId: string): Promise<void> => channels.removeFor(userId),
    teamDeleted: (teamId: string): Promise<void> => channels.teamDeleted(teamId),
  };
  return service;
}
