import { z } from 'zod/mini';
import { defineEndpoint } from './endpoint.ts';

/**
 * Slack and Microsoft Teams channels (Settings › Connected Accounts): a person, or a team's owner or
 * admin for the team, connects a channel by its incoming webhook URL (Slack) or Workflows webhook
 * URL (Teams, "When a Teams webhook request is received"). When a meeting's notes are ready they are
 * posted there; from a meeting, "Share to Slack" posts them on demand. The URL is a secret: it is
 * stored sealed and only its host is ever shown again.
 */

export const MAX_WEBHOOK_URL_LENGTH = 2000;

/** Whose channel: the caller's own, or a team's (`teamId`, managed by its owner and admins). */
export const ChatConnectionScopeSchema = z.object({ teamId: z.optional(z.uuid()) });

export const ChatConnectionSchema = z.object({
  teamId: z.nullable(z.uuid()),
  connected: z.boolean(),
  /** How it posts: an incoming webhook URL, or the Slack app's bot token ("Add to Slack"). */
  method: z.nullable(z.enum(['webhook', 'app'])),
  /** Where posts go, without the secret: `hooks.slack.com/…`, or `#channel` for the app. */
  destination: z.nullable(z.string()),
  /** Who connected it. */
  connectedBy: z.nullable(z.string()),
  connectedAt: z.nullable(z.string()),
  /** Post each meeting's notes when they are ready. */
  notesReady: z.boolean(),
  /** Link the post to a share link (readable without an account) instead of the meeting page. */
  shareLinks: z.boolean(),
  lastPostAt: z.nullable(z.string()),
  /** The last post's failure and what to do about it; null once a post goes through. */
  lastError: z.nullable(z.string()),
  lastErrorAt: z.nullable(z.string()),
});
export type ChatConnection = z.infer<typeof ChatConnectionSchema>;

export const ConnectChatBodySchema = z.strictObject({
  /** Required to connect; left out to change only the options of a connected channel. */
  webhookUrl: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_WEBHOOK_URL_LENGTH))),
  teamId: z.optional(z.uuid()),
  notesReady: z.optional(z.boolean()),
  shareLinks: z.optional(z.boolean()),
});
export type ConnectChatBody = z.infer<typeof ConnectChatBodySchema>;

export const ChatOkSchema = z.object({ ok: z.literal(true) });

/** "Share to Slack" from a meeting page: the notes now; the transcript too when asked. */
export const ShareToSlackBodySchema = z.strictObject({
  teamId: z.optional(z.uuid()),
  transcript: z._default(z.boolean(), false),
});
export const ShareToSlackResponseSchema = z.object({
  ok: z.literal(true),
  /** How the transcript went: in the message (webhook), as a file (the app), or not at all. */
  transcript: z.enum(['none', 'blocks', 'file']),
  /** The transcript was longer than one message holds: the first part went, with a link to the rest. */
  transcriptTruncated: z.boolean(),
});
export type ShareToSlackResponse = z.infer<typeof ShareToSlackResponseSchema>;

const IdParams = z.object({ id: z.uuid() });

/** Whether this server has a Slack app ("Add to Slack"), and the redirect URI its operator registers for it. */
export const SlackAppSchema = z.object({ available: z.boolean(), redirectUri: z.string() });
export type SlackApp = z.infer<typeof SlackAppSchema>;
export const SlackOAuthStartSchema = z.object({ authorizationUrl: z.string() });
/** The callback page hands over what Slack sent it (`?code=…&state=…`, or `?error=…`). */
export const SlackOAuthFinishBodySchema = z.strictObject({
  callback: z.string().check(z.maxLength(4000)),
  teamId: z.optional(z.uuid()),
});
export const SlackChannelSchema = z.object({ id: z.string(), name: z.string(), isPrivate: z.boolean() });
export type SlackChannel = z.infer<typeof SlackChannelSchema>;
export const SlackChannelListSchema = z.object({ channels: z.array(SlackChannelSchema) });
export const ChooseSlackChannelBodySchema = z.strictObject({
  channelId: z.string().check(z.minLength(1), z.maxLength(40), z.regex(/^[A-Z0-9]+$/)),
  teamId: z.optional(z.uuid()),
});

export const slackEndpoints = {
  get: defineEndpoint({
    method: 'GET',
    path: '/api/v1/integrations/slack',
    query: ChatConnectionScopeSchema,
    response: ChatConnectionSchema,
    tag: 'integrations',
    summary: 'The Slack channel the caller (or a team) posts to',
  }),
  connect: defineEndpoint({
    method: 'PUT',
    path: '/api/v1/integrations/slack',
    body: ConnectChatBodySchema,
    response: ChatConnectionSchema,
    tag: 'integrations',
    summary: 'Connect a Slack incoming webhook URL, or change its options',
  }),
  disconnect: defineEndpoint({
    method: 'DELETE',
    path: '/api/v1/integrations/slack',
    query: ChatConnectionScopeSchema,
    response: ChatOkSchema,
    tag: 'integrations',
  }),
  test: defineEndpoint({
    method: 'POST',
    path: '/api/v1/integrations/slack/test',
    body: ChatConnectionScopeSchema,
    response: ChatConnectionSchema,
    tag: 'integrations',
    summary: 'Post a test message; the answer carries the outcome (lastPostAt or lastError)',
  }),
  app: defineEndpoint({ method: 'GET', path: '/api/v1/integrations/slack/app', response: SlackAppSchema, tag: 'integrations' }),
  oauthStart: defineEndpoint({
    method: 'POST',
    path: '/api/v1/integrations/slack/oauth/start',
    body: ChatConnectionScopeSchema,
    response: SlackOAuthStartSchema,
    tag: 'integrations',
    summary: 'Add to Slack: the Slack authorization URL to send the browser to',
  }),
  oauthFinish: defineEndpoint({
    method: 'POST',
    path: '/api/v1/integrations/slack/oauth/finish',
    body: SlackOAuthFinishBodySchema,
    response: ChatConnectionSchema,
    tag: 'integrations',
    summary: 'Add to Slack: exchange the code Slack sent back for the bot token',
  }),
  channels: defineEndpoint({
    method: 'GET',
    path: '/api/v1/integrations/slack/channels',
    query: ChatConnectionScopeSchema,
    response: SlackChannelListSchema,
    tag: 'integrations',
    summary: 'The channels the Slack app may post to (conversations.list)',
  }),
  chooseChannel: defineEndpoint({
    method: 'PUT',
    path: '/api/v1/integrations/slack/channel',
    body: ChooseSlackChannelBodySchema,
    response: ChatConnectionSchema,
    tag: 'integrations',
  }),
  share: defineEndpoint({
    method: 'POST',
    path: '/api/v1/meetings/:id/slack',
    params: IdParams,
    body: ShareToSlackBodySchema,
    response: ShareToSlackResponseSchema,
    tag: 'integrations',
    summary: 'Share to Slack: post the meeting’s notes (and its transcript when asked) now',
  }),
};

export const microsoftTeamsEndpoints = {
  get: defineEndpoint({
    method: 'GET',
    path: '/api/v1/integrations/teams',
    query: ChatConnectionScopeSchema,
    response: ChatConnectionSchema,
    tag: 'integrations',
    summary: 'The Microsoft Teams channel (Workflows webhook) the caller (or a team) posts to',
  }),
  connect: defineEndpoint({
    method: 'PUT',
    path: '/api/v1/integrations/teams',
    body: ConnectChatBodySchema,
    response: ChatConnectionSchema,
    tag: 'integrations',
    summary: 'Connect a Teams Workflows webhook URL, or change its options',
  }),
  disconnect: defineEndpoint({
    method: 'DELETE',
    path: '/api/v1/integrations/teams',
    query: ChatConnectionScopeSchema,
    response: ChatOkSchema,
    tag: 'integrations',
  }),
  test: defineEndpoint({
    method: 'POST',
    path: '/api/v1/integrations/teams/test',
    body: ChatConnectionScopeSchema,
    response: ChatConnectionSchema,
    tag: 'integrations',
    summary: 'Post a test card; the answer carries the outcome (lastPostAt or lastError)',
  }),
};
