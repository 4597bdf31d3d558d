import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatConnectionSchema, ShareToSlackResponseSchema, SlackAppSchema, SlackChannelListSchema } from '#shared/contracts/chat-integrations.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { startFakeSlackApi, type FakeSlackApi } from '#tests/support/fake-slack-api.ts';

// "Add to Slack" on the real server against a local server speaking Slack's Web API and OAuth v2,
// through the official client (@slack/web-api) and the OAuth client: the code for a bot token (PKCE,
// sealed state used once), the channel picker over conversations.list's pages, notes posted with
// chat.postMessage, the transcript uploaded as a file, a 429 with Retry-After waited out, Slack's
// {ok:false,error} and a malformed answer worded for the person, and revocation on disconnect.

const APP = { clientId: '1234.5678', clientSecret: 'slack-client-secret' };
type User = { token: string; userId: string; email: string };

const VTT = ['WEBVTT', '', '00:00:00.000 --> 00:00:09.000', '<v Omar>I will send the revised budget to finance by Friday.', ''].join('\n');

describe('Add to Slack (a Slack app)', () => {
  let t: TestApp;
  let slack: FakeSlackApi;
  let owner: User;

  const call = async (user: User, method: string, url: string, body?: unknown) => {
    const response = await t.app.inject({
      method: method as 'GET',
      url,
      headers: { authorization: `Bearer ${user.token}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    return { status: response.statusCode, text: response.body, json: () => response.json() as unknown };
  };
  const test = async () => ChatConnectionSchema.parse((await call(owner, 'POST', '/api/v1/integrations/slack/test', {})).json());

  beforeAll(async () => {
    slack = await startFakeSlackApi(APP);
    t = await buildTestApp({
      env: {
        AUTH_AUTOCONFIRM: 'true',
        AUTH_RATE_LIMITS: 'false',
        OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
        SLACK_CLIENT_ID: APP.clientId,
        SLACK_CLIENT_SECRET: APP.clientSecret,
        SLACK_API_URL: slack.apiUrl,
        SLACK_AUTHORIZE_URL: slack.authorizeUrl,
      },
    });
    owner = await signUpUser(t.app, 'slack-app');
  });
  afterAll(async () => {
    await t.close();
    await slack.close();
  });

  it('adds the app, picks a channel, posts notes and files, and revokes on disconnect', { timeout: 60_000 }, async () => {
    expect(SlackAppSchema.parse((await call(owner, 'GET', '/api/v1/integrations/slack/app')).json())).toEqual({
      available: true,
      redirectUri: `${t.config.publicUrl}/integrations/slack/callback`,
    });
    const started = (await call(owner, 'POST', '/api/v1/integrations/slack/oauth/start', {})).json() as { authorizationUrl: string };
    const authorize = new URL(started.authorizationUrl);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(slack.authorizeUrl);
    expect(authorize.searchParams.get('client_id')).toBe(APP.clientId);
    expect(authorize.searchParams.get('scope')).toBe('chat:write,chat:write.public,channels:read,groups:read,files:write');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    const state = authorize.searchParams.get('state') ?? '';

    // A wrong code: Slack's {ok:false,error} is said, and the flow must start again.
    const refused = await call(owner, 'POST', '/api/v1/integrations/slack/oauth/finish', { callback: `?code=bad-code&state=${encodeURIComponent(state)}` });
    expect(refused.status).toBe(400);
    const restarted = new URL(
      ((await call(owner, 'POST', '/api/v1/integrations/slack/oauth/start', {})).json() as { authorizationUrl: string }).authorizationUrl,
    );
    const freshState = restarted.searchParams.get('state') ?? '';
    const finished = await call(owner, 'POST', '/api/v1/integrations/slack/oauth/finish', {
      callback: `?code=good-code&state=${encodeURIComponent(freshState)}`,
    });
    expect(finished.status, finished.text).toBe(200);
    expect(ChatConnectionSchema.parse(finished.json())).toMatchObject({ connected: true, method: 'app', destination: 'Acme (pick a channel)' });
    expect(finished.text).not.toContain('xoxb');
    const stored = await t.database.db.selectFrom('slack_connections').select(['bot_token']).where('user_id', '=', owner.userId).executeTakeFirstOrThrow();
    expect(stored.bot_token).toMatch(/^enc:v1:/);
    // The same state a second time is refused.
    expect(
      (await call(owner, 'POST', '/api/v1/integrations/slack/oauth/finish', { callback: `?code=good-code&state=${encodeURIComponent(freshState)}` })).status,
    ).toBe(400);

    // Before a channel is picked, a post says to pick one.
    expect((await test()).lastError).toMatch(/Pick the Slack channel/);
    const listed = SlackChannelListSchema.parse((await call(owner, 'GET', '/api/v1/integrations/slack/channels')).json());
    expect(listed.channels.map((c) => c.name)).toEqual(['general', 'leads', 'random']);
    expect(slack.callsTo('conversations.list').map((c) => c.params.get('cursor'))).toEqual([null, 'page-2']);
    expect((await call(owner, 'PUT', '/api/v1/integrations/slack/channel', { channelId: 'C0NOTLISTED' })).status).toBe(400);
    const chosen = await call(owner, 'PUT', '/api/v1/integrations/slack/channel', { channelId: 'C0GENERAL' });
    expect(ChatConnectionSchema.parse(chosen.json())).toMatchObject({ destination: '#general in Acme', lastError: null });

    // Notes ready: chat.postMessage with the bot token, Block Kit in `blocks`.
    const imported = await call(owner, 'POST', '/api/v1/meetings/imports', { fileName: 'budget.vtt', content: VTT, title: 'Budget review' });
    const { id } = imported.json() as { id: string };
    await expect.poll(() => slack.callsTo('chat.postMessage').length, { timeout: 30_000, interval: 100 }).toBe(1);
    const posted = slack.callsTo('chat.postMessage')[0]!;
    expect(posted.authorization).toBe('Bearer xoxb-test-bot-token');
    expect(posted.params.get('channel')).toBe('C0GENERAL');
    expect(posted.params.get('text')).toMatch(/^Meeting notes are ready: Budget review/);
    expect((JSON.parse(posted.params.get('blocks') ?? '[]') as { type: string }[])[0]).toMatchObject({ type: 'header' });

    // Share to Slack with the transcript: the notes, then the transcript as a file.
    const shared = await call(owner, 'POST', `/api/v1/meetings/${id}/slack`, { transcript: true });
    expect(shared.status, shared.text).toBe(200);
    expect(ShareToSlackResponseSchema.parse(shared.json())).toEqual({ ok: true, transcript: 'file', transcriptTruncated: false });
    const uploaded = slack.calls.find((c) => c.method.startsWith('/upload/'))!;
    expect(uploaded.raw.toString('utf8')).toContain('[0:00] Omar: I will send the revised budget to finance by Friday.');
    expect(slack.callsTo('files.getUploadURLExternal')[0]?.params.get('filename')).toBe('Budget review.txt');
    expect(slack.callsTo('files.completeUploadExternal')[0]?.params.get('channel_id')).toBe('C0GENERAL');

    // A 429 with Retry-After is waited out once; Slack's errors and a malformed answer are worded.
    const before = slack.callsTo('chat.postMessage').length;
    slack.override('chat.postMessage', { status: 429, headers: { 'retry-after': '1' }, body: '{"ok":false,"error":"ratelimited"}' });
    expect((await test()).lastError).toBeNull();
    expect(slack.callsTo('chat.postMessage').length).toBe(before + 2);
    slack.override('chat.postMessage', { body: '{"ok":false,"error":"not_in_channel"}' });
    expect((await test()).lastError).toMatch(/not in that Slack channel \(not_in_channel\)\. Invite it there/);
    slack.override('chat.postMessage', { body: '<html>Service unavailable</html>', headers: { 'content-type': 'text/html' } });
    expect((await test()).lastError).toMatch(/not its Web API/);

    expect((await call(owner, 'DELETE', '/api/v1/integrations/slack')).status).toBe(200);
    expect(slack.callsTo('auth.revoke').map((c) => c.authorization)).toEqual(['Bearer xoxb-test-bot-token']);
    expect(ChatConnectionSchema.parse((await call(owner, 'GET', '/api/v1/integrations/slack')).json())).toMatchObject({ connected: false });
  });
});
