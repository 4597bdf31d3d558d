import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatConnectionSchema, type ChatConnection } from '#shared/contracts/chat-integrations.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { startChatReceiver, type ChatReceiver } from '#tests/support/chat-receiver.ts';

// Microsoft Teams through a Workflows webhook ("When a Teams webhook request is received"), on the
// real server posting over real HTTP to a local receiver answering as a Workflow trigger does (202):
// the Adaptive Card when an imported transcript's notes are ready, a refusal kept with its fix, and
// a webhook that never answers given up on at the time limit.

const ENV = { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' };
type User = { token: string; userId: string; email: string };

const VTT = [
  'WEBVTT',
  '',
  '00:00:00.000 --> 00:00:09.000',
  '<v Dana>Welcome everyone. Today we need to settle the budget for the spring campaign.',
  '',
  '00:00:10.000 --> 00:00:19.000',
  '<v Omar>I will send the revised budget to finance by Friday.',
  '',
  '00:00:20.000 --> 00:00:29.000',
  "<v Dana>Let's go with the blue theme for the campaign visuals. That is decided.",
  '',
].join('\n');

type Card = {
  type: string;
  attachments: {
    contentType: string;
    content: {
      type: string;
      version: string;
      body: { type: string; text?: string; facts?: { title: string; value: string }[] }[];
      actions: { type: string; url: string }[];
    };
  }[];
};

describe('Microsoft Teams Workflows webhooks', () => {
  let t: TestApp;
  let teams: ChatReceiver;
  let owner: User;
  const PATH = '/workflows/abc/triggers/manual/paths/invoke';

  const call = async (user: User, method: string, url: string, body?: unknown) => {
    const response = await t.app.inject({
      method: method as 'GET',
      url,
      headers: { authorization: `Bearer ${user.token}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    return { status: response.statusCode, text: response.body, json: () => response.json() as unknown };
  };
  const state = async (user: User): Promise<ChatConnection> => ChatConnectionSchema.parse((await call(user, 'GET', '/api/v1/integrations/teams')).json());

  beforeAll(async () => {
    teams = await startChatReceiver({ status: 202, body: '' });
    t = await buildTestApp({ env: ENV, deps: { eventDelivery: { maxAttempts: 2, retryDelayMs: 100 }, outboundTimeoutMs: 5_000 } });
    owner = await signUpUser(t.app, 'msteams');
  });
  afterAll(async () => {
    await t.close();
    await teams.close();
  });

  it('posts the notes as an Adaptive Card, and keeps a refusal with its fix', { timeout: 60_000 }, async () => {
    const connected = await call(owner, 'PUT', '/api/v1/integrations/teams', { webhookUrl: `${teams.url(PATH)}?api-version=1&sig=secret-signature` });
    expect(connected.status, connected.text).toBe(200);
    expect(connected.text).not.toContain('secret-signature');
    expect(ChatConnectionSchema.parse(connected.json())).toMatchObject({ connected: true, destination: `${new URL(teams.url(PATH)).host}/…` });

    const imported = await call(owner, 'POST', '/api/v1/meetings/imports', { fileName: 'budget.vtt', content: VTT, title: 'Campaign budget' });
    expect(imported.status, imported.text).toBe(201);
    const { id } = imported.json() as { id: string };
    await expect.poll(() => teams.postsTo(PATH).length, { timeout: 30_000, interval: 100 }).toBe(1);
    const card = teams.postsTo(PATH)[0]?.body as Card;
    expect(card.type).toBe('message');
    expect(card.attachments).toHaveLength(1);
    const [attachment] = card.attachments;
    expect(attachment?.contentType).toBe('application/vnd.microsoft.card.adaptive');
    const content = attachment!.content;
    expect(content).toMatchObject({ type: 'AdaptiveCard', version: '1.4' });
    expect(content.body.some((b) => b.type === 'TextBlock' && b.text === 'Campaign budget')).toBe(true);
    const facts = content.body.find((b) => b.type === 'FactSet')?.facts ?? [];
    expect(facts.map((f) => f.title)).toEqual(['Date', 'Participants']);
    expect(facts[1]?.value).toBe('Dana, Omar');
    const texts = content.body.map((b) => b.text ?? '');
    expect(texts).toContain('Action items');
    expect(texts.some((x) => /^- .*revised budget.* — \*\*Omar\*\* · due \w{3}, \w{3} \d+/.test(x))).toBe(true);
    expect(texts).toContain('Decisions');
    expect(content.actions).toEqual([{ type: 'Action.OpenUrl', title: 'Open in Parley', url: `${t.config.publicUrl}/meetings/${id}` }]);
    await expect.poll(async () => (await state(owner)).lastPostAt, { timeout: 5_000 }).not.toBeNull();

    // The workflow was turned off or its signature changed: Power Automate's 401 with its error code.
    teams.answer(PATH, {
      status: 401,
      body: JSON.stringify({ error: { code: 'DirectApiAuthorizationRequired', message: 'no' } }),
      contentType: 'application/json',
    });
    const tested = ChatConnectionSchema.parse((await call(owner, 'POST', '/api/v1/integrations/teams/test', {})).json());
    expect(tested.lastError).toBe(
      'The Teams workflow refused the card (DirectApiAuthorizationRequired): its URL changed or it is turned off. Open it in Teams › Workflows, or create a new one and connect its URL.',
    );
    // A workflow that never answers is given up on at the guard's time limit, and said so.
    teams.answer(PATH, 'hang');
    const hung = ChatConnectionSchema.parse((await call(owner, 'POST', '/api/v1/integrations/teams/test', {})).json());
    expect(hung.lastError).toMatch(/^Teams could not be reached: .*(time|answer)/i);

    expect((await call(owner, 'DELETE', '/api/v1/integrations/teams')).status).toBe(200);
    expect(await state(owner)).toMatchObject({ connected: false, destination: null });
  });
  it("takes a deleted team's channel with it", { timeout: 60_000 }, async () => {
    const team = (await call(owner, 'POST', '/api/v1/teams', { name: 'Short-lived' })).json() as { id: string };
    const put = await call(owner, 'PUT', '/api/v1/integrations/teams', { webhookUrl: teams.url(`${PATH}?team=1`), teamId: team.id });
    expect(put.status, put.text).toBe(200);
    const scopes = () => t.database.db.selectFrom('microsoft_teams_connections').select('scope_key').where('user_id', '=', owner.userId).execute();
    expect((await scopes()).map((r) => r.scope_key)).toContain(`team:${team.id}`);
    expect((await call(owner, 'DELETE', `/api/v1/teams/${team.id}`)).status).toBe(200);
    await t.deps.jobs.idle();
    expect((await scopes()).map((r) => r.scope_key)).not.toContain(`team:${team.id}`);
  });
});
