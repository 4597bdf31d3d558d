import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettingsResponseSchema, type UserSettings } from '#shared/contracts/settings.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { getPipelineSettings } from './pipeline-settings.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' } });
});
afterAll(() => t.close());

/** A new account with the name given at sign-up (billing defaults to it). */
const newUser = (fullName = 'Ada Lovelace') => signUpUser(t.app, 'settings', { fullName });

const getSettings = async (token: string) => {
  const response = await t.app.inject({ method: 'GET', url: '/api/v1/settings', headers: { authorization: `Bearer ${token}` } });
  return { status: response.statusCode, body: response.json() as unknown };
};
const put = async (token: string, tab: string, payload: unknown) => {
  const response = await t.app.inject({
    method: 'PUT',
    url: `/api/v1/settings/${tab}`,
    headers: { authorization: `Bearer ${token}` },
    payload: payload as object,
  });
  return { status: response.statusCode, body: response.json() as unknown };
};
const parsed = (body: unknown): UserSettings => SettingsResponseSchema.parse(body).settings;
const savedTabs = (body: unknown) => SettingsResponseSchema.parse(body).savedTabs;
const storedRow = (userId: string) => t.deps.database.db.selectFrom('user_settings').selectAll().where('user_id', '=', userId).executeTakeFirst();

describe('GET /api/v1/settings', () => {
  it('answers the spec defaults for a new account, billing from the account, and stores nothing', async () => {
    const { token, userId, email } = await newUser('Grace Hopper');
    const { status, body } = await getSettings(token);
    expect(status).toBe(200);
    expect(savedTabs(body)).toEqual([]);
    expect(parsed(body)).toEqual({
      notifications: {
        meetingReminders: true,
        transcriptionComplete: true,
        aiInsightsReady: true,
        teamActivity: false,
        productUpdates: true,
        actionItems: true,
        mentions: true,
        teamInvitations: true,
      },
      recording: { quality: 'high', format: 'mp3', speakerDiarization: true, automaticPunctuation: true, fillerWordRemoval: false, aiSummary: true },
      privacy: { anonymizedUsage: true, errorReporting: true, aiImprovement: false, autoDelete: '90days' },
      billing: { name: 'Grace Hopper', email, company: '', address: '', city: '', state: '', zip: '', country: '' },
    });
    expect(await storedRow(userId)).toBeUndefined();
  });

  it('refuses a request without a valid token', async () => {
    expect((await getSettings('not-a-token')).status).toBe(401);
    const response = await t.app.inject({ method: 'PUT', url: '/api/v1/settings/privacy', payload: { autoDelete: 'never' } });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
  });
});

describe('PUT /api/v1/settings/:tab', () => {
  it('saves the fields sent, keeps the rest of the tab, and answers every tab', async () => {
    const { token, userId } = await newUser();
    const saved = await put(token, 'recording', { quality: 'ultra', fillerWordRemoval: true });
    expect(saved.status).toBe(200);
    expect(parsed(saved.body).recording).toEqual({
      quality: 'ultra',
      format: 'mp3',
      speakerDiarization: true,
      automaticPunctuation: true,
      fillerWordRemoval: true,
      aiSummary: true,
    });

    await put(token, 'recording', { format: 'wav' });
    const response = (await getSettings(token)).body;
    expect(savedTabs(response)).toEqual(['recording']);
    const again = parsed(response);
    expect(again.recording).toMatchObject({ quality: 'ultra', format: 'wav', fillerWordRemoval: true });
    expect(again.notifications.teamActivity).toBe(false);

    const row = await storedRow(userId);
    expect(Number(row?.revision)).toBe(2);
    // Tabs never saved are not frozen into the document: they keep following the defaults.
    expect(Object.keys(JSON.parse(row!.settings) as object)).toEqual(['recording']);
  });

  it('keeps each tab separate: saving one never resets another', async () => {
    const { token } = await newUser();
    await put(token, 'notifications', { teamActivity: true, productUpdates: false });
    await put(token, 'privacy', { autoDelete: '30days', aiImprovement: true });
    await put(token, 'billing', { company: 'Analytical Engines Ltd', zip: 'W1' });
    const settings = parsed((await getSettings(token)).body);
    expect(settings.notifications).toMatchObject({ teamActivity: true, productUpdates: false, mentions: true });
    expect(settings.privacy).toEqual({ anonymizedUsage: true, errorReporting: true, aiImprovement: true, autoDelete: '30days' });
    expect(settings.billing).toMatchObject({ name: 'Ada Lovelace', company: 'Analytical Engines Ltd', zip: 'W1', city: '' });
  });

  it('merges saves that arrive at the same moment instead of losing one', async () => {
    const { token } = await newUser();
    const results = await Promise.all([
      put(token, 'notifications', { mentions: false }),
      put(token, 'recording', { aiSummary: false }),
      put(token, 'privacy', { errorReporting: false }),
      put(token, 'billing', { city: 'London' }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const settings = parsed((await getSettings(token)).body);
    expect(settings.notifications.mentions).toBe(false);
    expect(settings.recording.aiSummary).toBe(false);
    expect(settings.privacy.errorReporting).toBe(false);
    expect(settings.billing.city).toBe('London');
  });

  it('refuses unknown choices, wrong types, unknown fields and overlong text with the field named', async () => {
    const { token, userId } = await newUser();
    for (const [tab, payload, path] of [
      ['recording', { quality: 'lossless' }, 'body.quality'],
      ['privacy', { autoDelete: '7days' }, 'body.autoDelete'],
      ['notifications', { mentions: 'yes' }, 'body.mentions'],
      ['billing', { zip: 'x'.repeat(201) }, 'body.zip'],
    ] as const) {
      const { status, body } = await put(token, tab, payload);
      expect(status, tab).toBe(400);
      expect(body).toMatchObject({ error: { code: 'VALIDATION_FAILED', details: [expect.objectContaining({ path })] } });
    }
    const unknown = await put(token, 'recording', { quality: 'high', owner: 'someone-else' });
    expect(unknown.status).toBe(400);
    expect(await storedRow(userId)).toBeUndefined();
    expect((await put(token, 'profile', { firstName: 'x' })).status).toBe(404);
  });

  it('is per person: one account’s saves never reach another’s', async () => {
    const first = await newUser();
    const second = await newUser('Charles Babbage');
    await put(first.token, 'billing', { company: 'Mine' });
    await put(first.token, 'privacy', { autoDelete: 'never' });
    const theirs = parsed((await getSettings(second.token)).body);
    expect(theirs.billing).toMatchObject({ name: 'Charles Babbage', company: '' });
    expect(theirs.privacy.autoDelete).toBe('90days');
  });

  it('reads a damaged or outdated stored document over the defaults, field by field', async () => {
    const { token, userId } = await newUser();
    await put(token, 'recording', { quality: 'standard' });
    await t.deps.database.db
      .updateTable('user_settings')
      .set({ settings: JSON.stringify({ recording: { quality: 'lossless', format: 'aac', aiSummary: 'no', retired: true }, privacy: 'garbage' }) })
      .where('user_id', '=', userId)
      .execute();
    const settings = parsed((await getSettings(token)).body);
    expect(settings.recording).toEqual({
      quality: 'high',
      format: 'aac',
      speakerDiarization: true,
      automaticPunctuation: true,
      fillerWordRemoval: false,
      aiSummary: true,
    });
    expect(settings.privacy.autoDelete).toBe('90days');
    await t.deps.database.db.updateTable('user_settings').set({ settings: '{not json' }).where('user_id', '=', userId).execute();
    expect(parsed((await getSettings(token)).body).recording.quality).toBe('high');
    // And a save over it still works.
    expect(parsed((await put(token, 'recording', { format: 'wav' })).body).recording.format).toBe('wav');
  });

  it('goes when the account goes', async () => {
    const { token, userId } = await newUser();
    await put(token, 'privacy', { autoDelete: '1year' });
    expect(await storedRow(userId)).toBeDefined();
    await t.deps.database.db.deleteFrom('auth_users').where('id', '=', userId).execute();
    expect(await storedRow(userId)).toBeUndefined();
  });
});

describe('the OpenAPI document', () => {
  it('describes GET /api/v1/settings and one PUT per tab', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(document.paths['/api/v1/settings'] ?? {})).toContain('get');
    for (const tab of ['notifications', 'recording', 'privacy', 'billing'])
      expect(Object.keys(document.paths[`/api/v1/settings/${tab}`] ?? {}), tab).toContain('put');
  });
});

describe('getPipelineSettings', () => {
  it('answers the Recording defaults, then what the person saved', async () => {
    const { token, userId } = await newUser();
    const db = t.deps.database.db;
    expect(await getPipelineSettings(db, userId)).toEqual({ identifySpeakers: true, punctuation: true, fillerWordRemoval: false });
    await put(token, 'recording', { speakerDiarization: false, automaticPunctuation: false, fillerWordRemoval: true });
    expect(await getPipelineSettings(db, userId)).toEqual({ identifySpeakers: false, punctuation: false, fillerWordRemoval: true });
  });
});
