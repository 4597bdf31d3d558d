import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MeetingDetailSchema } from '#shared/contracts/meetings.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { TEAMS_VTT, ZOOM_VTT } from '#tests/support/transcript-samples.ts';

// Idempotency-Key on the endpoints that create a meeting: a client that retries after losing the
// answer gets the first answer again, not a second meeting.
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' } });
});
afterAll(() => t.close());

type Caller = { token: string; userId: string };
const post = (who: Caller, url: string, payload: object, key?: string) =>
  t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${who.token}`, ...(key === undefined ? {} : { 'idempotency-key': key }) }, payload });
const importFile = (who: Caller, body: object, key?: string) => post(who, '/api/v1/meetings/imports', body, key);
const create = (who: Caller, body: object, key?: string) => post(who, '/api/v1/meetings', body, key);
const meetingsOf = async (who: Caller) =>
  Number(
    (
      await t.deps.database.db
        .selectFrom('meetings')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('owner_id', '=', who.userId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('Idempotency-Key on imports', () => {
  it('answers a retry with the same key and file with the first answer, creating one meeting', async () => {
    const owner = await signUpUser(t.app, 'idem-import');
    const before = await meetingsOf(owner);
    const body = { fileName: 'Launch sync.vtt', content: TEAMS_VTT };
    const first = await importFile(owner, body, 'import-1');
    expect(first.statusCode).toBe(201);
    const again = await importFile(owner, body, 'import-1');
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await meetingsOf(owner)).toBe(before + 1);
    // Keys are the person's own: another person's same key is another request.
    const other = await signUpUser(t.app, 'idem-import-other');
    const theirs = await importFile(other, body, 'import-1');
    expect(theirs.statusCode).toBe(201);
    expect(MeetingDetailSchema.parse(theirs.json()).id).not.toBe(MeetingDetailSchema.parse(first.json()).id);
    // No key, no memory: each request creates.
    expect((await importFile(owner, body)).statusCode).toBe(201);
    expect((await importFile(owner, body)).statusCode).toBe(201);
    expect(await meetingsOf(owner)).toBe(before + 3);
  });

  it('answers 422 for the same key with another file, and creates nothing', async () => {
    const owner = await signUpUser(t.app, 'idem-reuse');
    expect((await importFile(owner, { fileName: 'a.vtt', content: TEAMS_VTT }, 'reused')).statusCode).toBe(201);
    const before = await meetingsOf(owner);
    const reused = await importFile(owner, { fileName: 'b.vtt', content: ZOOM_VTT }, 'reused');
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toEqual({
      error: { code: 'IDEMPOTENCY_KEY_REUSED', message: 'This Idempotency-Key was used for a different request. Send a new key with a new request.' },
    });
    expect(await meetingsOf(owner)).toBe(before);
  });

  it('lets the key go when the request fails, so the corrected retry runs', async () => {
    const owner = await signUpUser(t.app, 'idem-failed');
    const broken = await importFile(owner, { fileName: 'a.vtt', content: 'WEBVTT\n\n00:00:1x.000 --> 00:00:02.000\nHi\n' }, 'fix-and-retry');
    expect(broken.statusCode).toBe(400);
    expect((await importFile(owner, { fileName: 'a.vtt', content: TEAMS_VTT }, 'fix-and-retry')).statusCode).toBe(201);
  });

  it('answers one of two requests racing with the same key, and creates one meeting', async () => {
    const owner = await signUpUser(t.app, 'idem-race');
    const before = await meetingsOf(owner);
    const body = { fileName: 'race.vtt', content: TEAMS_VTT };
    const answers = await Promise.all([importFile(owner, body, 'race'), importFile(owner, body, 'race')]);
    const statuses = answers.map((a) => a.statusCode).sort();
    expect([
      [201, 201],
      [201, 409],
    ]).toContainEqual(statuses);
    expect(await meetingsOf(owner)).toBe(before + 1);
  });

  it('lets a key go that was claimed but never answered (its process stopped) once 10 minutes have passed', async () => {
    const owner = await signUpUser(t.app, 'idem-abandoned');
    const body = { fileName: 'left.vtt', content: TEAMS_VTT };
    await t.deps.database.db
      .insertInto('meeting_idempotency_keys')
      .values({ user_id: owner.userId, endpoint: 'import', key: 'left', request_hash: 'x', status: null, response: null, created_at: new Date().toISOString() })
      .execute();
    expect((await importFile(owner, body, 'left')).statusCode).toBe(422); // another request's key, still being answered as far as anyone knows
    await t.deps.database.db
      .updateTable('meeting_idempotency_keys')
      .set({ created_at: new Date(Date.now() - 11 * 60_000).toISOString() })
      .where('user_id', '=', owner.userId)
      .execute();
    expect((await importFile(owner, body, 'left')).statusCode).toBe(201);
  });

  it('forgets a key after 24 hours', async () => {
    const owner = await signUpUser(t.app, 'idem-expiry');
    const body = { fileName: 'daily.vtt', content: TEAMS_VTT };
    const first = MeetingDetailSchema.parse((await importFile(owner, body, 'daily')).json());
    await t.deps.database.db
      .updateTable('meeting_idempotency_keys')
      .set({ created_at: new Date(Date.now() - 25 * 3_600_000).toISOString() })
      .where('user_id', '=', owner.userId)
      .execute();
    const later = await importFile(owner, body, 'daily');
    expect(later.statusCode).toBe(201);
    expect(MeetingDetailSchema.parse(later.json()).id).not.toBe(first.id);
  });

  it('answers 400 for a key longer than 255 characters or not printable ASCII', async () => {
    const owner = await signUpUser(t.app, 'idem-long');
    const before = await meetingsOf(owner);
    expect((await importFile(owner, { fileName: 'a.vtt', content: TEAMS_VTT }, 'k'.repeat(256))).statusCode).toBe(400);
    expect((await importFile(owner, { fileName: 'a.vtt', content: TEAMS_VTT }, 'two words')).statusCode).toBe(400);
    expect((await importFile(owner, { fileName: 'a.vtt', content: TEAMS_VTT }, 'k'.repeat(255))).statusCode).toBe(201);
    expect(await meetingsOf(owner)).toBe(before + 1);
  });
});

describe('Idempotency-Key on creating a meeting', () => {
  it('answers a retry with the same key with the first meeting; another key or body is another answer', async () => {
    const owner = await signUpUser(t.app, 'idem-create');
    const before = await meetingsOf(owner);
    const first = await create(owner, { title: 'Standup' }, 'create-1');
    expect(first.statusCode).toBe(201);
    const again = await create(owner, { title: 'Standup' }, 'create-1');
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await meetingsOf(owner)).toBe(before + 1);
    expect((await create(owner, { title: 'Retro' }, 'create-1')).statusCode).toBe(422);
    expect((await create(owner, { title: 'Standup' }, 'create-2')).statusCode).toBe(201);
    expect(await meetingsOf(owner)).toBe(before + 2);
  });

  it('documents the header on both endpoints', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
    };
    for (const path of ['/api/v1/meetings', '/api/v1/meetings/imports']) {
      expect(doc.paths[path]?.post?.parameters).toContainEqual(expect.objectContaining({ name: 'idempotency-key', in: 'header' }));
    }
  });
});
