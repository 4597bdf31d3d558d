import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatConnectionSchema, ShareToSlackResponseSchema, type ChatConnection } from '#shared/contracts/chat-integrations.ts';
import { TeamSchema, CreatedInvitationSchema } from '#shared/contracts/teams.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { startChatReceiver, type ChatReceiver } from '#tests/support/chat-receiver.ts';

// Slack through an incoming webhook URL (no app registration), on the real server posting over real
// HTTP to a local receiver: the Block Kit message when an imported transcript's notes are ready, once
// per channel; a team's channel (its admins connect it); a refusal kept with its fix and retried by
// the event delivery; Share to Slack with the transcript; the URL sealed and never shown again.

const ENV = { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' };
type User = { token: string; userId: string; email: string };

const VTT = [
  'WEBVTT',
  '',
  '00:00:00.000 --> 00:00:09.000',
  '<v Dana>Welcome everyone. Today we need to settle the budget for the spring campaign and who does what.',
  '',
  '00:00:10.000 --> 00:00:19.000',
  '<v Omar>I will send the revised budget to finance by Friday.',
  '',
  '00:00:20.000 --> 00:00:29.000',
  "<v Dana>Let's go with the blue theme for the campaign visuals. That is decided.",
  '',
].join('\n');

type SlackPost = { text: string; blocks: { type: string; text?: { type: string; text: string }; elements?: { text: string }[] }[] };
const sectionTexts = (post: SlackPost) => post.blocks.filter((b) => b.type === 'section').map((b) => b.text?.text ?? '');

describe('Slack incoming webhooks', () => {
  let t: TestApp;
  let slack: ChatReceiver;
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
  const state = async (user: User, teamId?: string): Promise<ChatConnection> => {
    const answer = await call(user, 'GET', `/api/v1/integrations/slack${teamId ? `?teamId=${teamId}` : ''}`);
    expect(answer.status, answer.text).toBe(200);
    return ChatConnectionSchema.parse(answer.json());
  };
  const importMeeting = async (user: User, title: string, teamId?: string): Promise<string> => {
    const imported = await call(user, 'POST', '/api/v1/meetings/imports', { fileName: 'budget.vtt', content: VTT, title, ...(teamId ? { teamId } : {}) });
    expect(imported.status, imported.text).toBe(201);
    return (imported.json() as { id: string }).id;
  };
  /** A new team of `owner`'s, which `invitee` joined by accepting an invitation in `role`. */
  const teamWith = async (owner: User, name: string, invitee: User, role: 'member' | 'admin') => {
    const team = TeamSchema.parse((await call(owner, 'POST', '/api/v1/teams', { name })).json());
    const invitation = CreatedInvitationSchema.parse(
      (await call(owner, 'POST', `/api/v1/teams/${team.id}/invitations`, { email: invitee.email, role })).json(),
    );
    expect((await call(invitee, 'POST', `/api/v1/invitations/${invitation.token}/accept`)).status).toBe(200);
    return team;
  };
  const postsAbout = (path: string, title: string) => slack.postsTo(path).filter((p) => JSON.stringify(p.body).includes(title));

  beforeAll(async () => {
    slack = await startChatReceiver();
    t = await buildTestApp({ env: ENV, deps: { eventDelivery: { maxAttempts: 3, retryDelayMs: 100 } } });
    owner = await signUpUser(t.app, 'slack');
  });
  afterAll(async () => {
    await t.close();
    await slack.close();
  });

  it('connects a webhook, keeps its URL sealed, and posts the notes as Block Kit when they are ready', { timeout: 60_000 }, async () => {
    expect(await state(owner)).toMatchObject({ connected: false, destination: null, notesReady: true });
    // No Slack app configured: Add to Slack says what the operator sets, the webhook works without it.
    expect((await call(owner, 'GET', '/api/v1/integrations/slack/app')).json()).toEqual({
      available: false,
      redirectUri: `${t.config.publicUrl}/integrations/slack/callback`,
    });
    expect((await call(owner, 'POST', '/api/v1/integrations/slack/oauth/start', {})).text).toMatch(/SLACK_CLIENT_ID and SLACK_CLIENT_SECRET/);
    const refused = await call(owner, 'PUT', '/api/v1/integrations/slack', { webhookUrl: 'ftp://hooks.slack.com/services/x' });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/not a Slack incoming webhook URL/);

    const url = slack.url('/services/T000/B000/personal-secret');
    const connected = await call(owner, 'PUT', '/api/v1/integrations/slack', { webhookUrl: url });
    expect(connected.status, connected.text).toBe(200);
    expect(connected.text).not.toContain('personal-secret');
    const host = new URL(url).host;
    expect(ChatConnectionSchema.parse(connected.json())).toMatchObject({ connected: true, method: 'webhook', destination: `${host}/…`, notesReady: true });
    const stored = await t.database.db.selectFrom('slack_connections').select('webhook_url').where('user_id', '=', owner.userId).executeTakeFirstOrThrow();
    expect(stored.webhook_url).toMatch(/^enc:v1:/);
    expect(stored.webhook_url).not.toContain('personal-secret');

    const id = await importMeeting(owner, 'Spring budget');
    await expect.poll(() => postsAbout('/services/T000/B000/personal-secret', 'Spring budget').length, { timeout: 30_000, interval: 100 }).toBe(1);
    const [received] = postsAbout('/services/T000/B000/personal-secret', 'Spring budget');
    expect(received?.contentType).toMatch(/^application\/json/);
    const post = received?.body as SlackPost;
    expect(post.text).toMatch(/^Meeting notes are ready: Spring budget \(/);
    expect(post.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: 'Spring budget' } });
    const context = post.blocks.find((b) => b.type === 'context')?.elements?.[0]?.text ?? '';
    expect(context).toContain('Dana, Omar');
    const sections = sectionTexts(post);
    expect(sections.some((s) => s.startsWith('*Action items*') && /revised budget.*— \*Omar\* · due \w{3}, \w{3} \d+/.test(s))).toBe(true);
    expect(sections.some((s) => s.startsWith('*Decisions*') && s.includes('blue theme'))).toBe(true);
    expect(sections).toContain(`<${t.config.publicUrl}/meetings/${id}|Open the meeting in Parley>`);
    expect(post.blocks.length).toBeLessThanOrEqual(50);
    await expect.poll(async () => (await state(owner)).lastPostAt, { timeout: 5_000 }).not.toBeNull();

    // Share to Slack on demand, with the transcript as text blocks (a webhook cannot upload files).
    const shared = await call(owner, 'POST', `/api/v1/meetings/${id}/slack`, { transcript: true });
    expect(shared.status, shared.text).toBe(200);
    expect(ShareToSlackResponseSchema.parse(shared.json())).toEqual({ ok: true, transcript: 'blocks', transcriptTruncated: false });
    const sharedPost = slack.postsTo('/services/T000/B000/personal-secret').at(-1)?.body as SlackPost;
    expect(sharedPost.text).toMatch(/^Shared from Parley: Spring budget/);
    expect(sectionTexts(sharedPost).some((s) => s.startsWith('*Transcript*') && s.includes('*Omar* (0:10): I will send the revised budget'))).toBe(true);

    // Off: the next meeting's notes are not posted.
    expect((await call(owner, 'PUT', '/api/v1/integrations/slack', { notesReady: false })).status).toBe(200);
    const quiet = await importMeeting(owner, 'Quiet meeting');
    await expect.poll(async () => (await t.deps.services.notes.jobOf(quiet))?.state, { timeout: 30_000 }).toBe('succeeded');
    await t.deps.jobs.idle();
    expect(postsAbout('/services/T000/B000/personal-secret', 'Quiet meeting')).toEqual([]);
  });

  it('keeps a refusal with its fix, retries through the event delivery, and posts each channel once', { timeout: 60_000 }, async () => {
    const admin = await signUpUser(t.app, 'slack-admin');
    const member = await signUpUser(t.app, 'slack-member');
    const outsider = await signUpUser(t.app, 'slack-outsider');
    const team = await teamWith(admin, 'Growth', member, 'member');

    // A team's channel: its admins connect it, its members see it, nobody else does.
    const teamUrl = slack.url('/services/T000/B000/team-secret');
    expect((await call(member, 'PUT', '/api/v1/integrations/slack', { webhookUrl: teamUrl, teamId: team.id })).status).toBe(403);
    expect((await call(outsider, 'GET', `/api/v1/integrations/slack?teamId=${team.id}`)).status).toBe(404);
    expect((await call(admin, 'PUT', '/api/v1/integrations/slack', { webhookUrl: teamUrl, teamId: team.id })).status).toBe(200);
    expect(await state(member, team.id)).toMatchObject({ connected: true, teamId: team.id });
    const personalPath = '/services/T000/B000/admin-secret';
    expect((await call(admin, 'PUT', '/api/v1/integrations/slack', { webhookUrl: slack.url(personalPath) })).status).toBe(200);

    // The team's channel fails once (Slack's 500), then takes it; the person's channel is not posted twice.
    slack.answer('/services/T000/B000/team-secret', { status: 500, body: 'internal_error' }, 1);
    await importMeeting(admin, 'Growth sync', team.id);
    await expect.poll(() => postsAbout('/services/T000/B000/team-secret', 'Growth sync').length, { timeout: 30_000, interval: 100 }).toBe(2);
    await t.deps.jobs.idle();
    expect(postsAbout(personalPath, 'Growth sync')).toHaveLength(1);
    expect(await state(admin, team.id)).toMatchObject({ lastError: null });

    // A webhook Slack no longer knows: every try refused; the card says what to do.
    slack.answer(personalPath, { status: 404, body: 'no_service' });
    await importMeeting(admin, 'Removed webhook');
    await expect
      .poll(async () => (await state(admin)).lastError, { timeout: 30_000, interval: 100 })
      .toMatch(/no longer works \(no_service\).*Create a new incoming webhook/);
    // Its last try failed too: the person who connected it is told, in the app, with the fix.
    const told = async () =>
      ((await call(admin, 'GET', '/api/v1/notifications')).json() as { items: { kind: string; title: string; body: string; link: string }[] }).items.filter(
        (n) => n.kind === 'integration',
      );
    await expect.poll(async () => (await told()).length, { timeout: 30_000, interval: 100 }).toBe(1);
    expect((await told())[0]).toMatchObject({ title: 'Meeting notes could not be posted to Slack', link: '/settings?tab=profile' });
    expect((await told())[0]?.body).toMatch(/no_service/);
    // A malformed answer (an HTML gateway page) is a failure too, and "Send test" reports it.
    slack.answer(personalPath, { status: 502, body: '<html>Bad gateway</html>', contentType: 'text/html' });
    const tested = await call(admin, 'POST', '/api/v1/integrations/slack/test', {});
    expect(tested.status, tested.text).toBe(200);
    expect(ChatConnectionSchema.parse(tested.json()).lastError).toMatch(/Slack refused the post \(HTTP 502|Slack answered HTTP 502/);
    slack.answer(personalPath, { status: 200, body: 'ok' });
    expect(ChatConnectionSchema.parse((await call(admin, 'POST', '/api/v1/integrations/slack/test', {})).json())).toMatchObject({ lastError: null });
    expect(JSON.stringify(slack.postsTo(personalPath).at(-1)?.body)).toContain('Parley is connected');

    // Share to Slack asks for a connected channel first.
    expect((await call(outsider, 'POST', `/api/v1/meetings/${crypto.randomUUID()}/slack`, {})).text).toMatch(/Connect Slack/);

    // Disconnect, and Delete All Data takes the person's channels with it.
    expect((await call(member, 'DELETE', `/api/v1/integrations/slack?teamId=${team.id}`)).status).toBe(403);
    expect((await call(admin, 'DELETE', `/api/v1/integrations/slack?teamId=${team.id}`)).status).toBe(200);
    expect(await state(admin, team.id)).toMatchObject({ connected: false });
    const deleted = await call(admin, 'DELETE', '/api/v1/me/data', { email: admin.email });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await state(admin)).toMatchObject({ connected: false });
  });

  it("takes a deleted team's channel with it, its sealed URL too, and leaves the people's own", { timeout: 60_000 }, async () => {
    const teamOwner = await signUpUser(t.app, 'slack-team-owner');
    const admin = await signUpUser(t.app, 'slack-team-admin');
    const team = await teamWith(teamOwner, 'Short-lived', admin, 'admin');
    // The admin connects the team's channel (and their own); the owner deletes the team.
    expect((await call(admin, 'PUT', '/api/v1/integrations/slack', { webhookUrl: slack.url('/services/T1/B1/gone-team'), teamId: team.id })).status).toBe(200);
    expect((await call(admin, 'PUT', '/api/v1/integrations/slack', { webhookUrl: slack.url('/services/T1/B1/admin-own') })).status).toBe(200);
    const scopes = () => t.database.db.selectFrom('slack_connections').select('scope_key').where('user_id', '=', admin.userId).execute();
    expect((await scopes()).map((r) => r.scope_key).sort()).toEqual([`team:${team.id}`, `user:${admin.userId}`]);

    expect((await call(teamOwner, 'DELETE', `/api/v1/teams/${team.id}`)).status).toBe(200);
    await t.deps.jobs.idle();
    expect((await scopes()).map((r) => r.scope_key)).toEqual([`user:${admin.userId}`]);
    expect(await state(admin)).toMatchObject({ connected: true });
  });
});
