import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeps, type Deps } from '#server/deps.ts';
import type { MeetingListItem, MeetingStats } from '#shared/contracts/meetings.ts';
import { buildTestApp, samplesSetUp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { TEST_JOB_TIMINGS } from '#tests/support/test-job-timings.ts';

// A new account's sample meetings are set up by a worker from the sign-up's `account.created`
// event, not by the web process that answered the sign-up: a web process alone (ROLE=web) signs
// the person up and says the samples are on their way; the worker then sets them up, once.

let web: TestApp;
let worker: Deps | undefined;
beforeAll(async () => {
  web = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' }, deps: { role: 'web' } });
});
afterAll(async () => {
  await worker?.close();
  await web.close();
});

const get = async <T>(token: string, url: string): Promise<T> => {
  const response = await web.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  expect(response.statusCode).toBe(200);
  return response.json() as T;
};

describe('a new account’s sample meetings', () => {
  it('are not set up by the web process that signed the person up, but by a worker, each with its notes', async () => {
    const { token } = await signUpUser(web.app, 'samples', { samples: false });
    expect(await get<MeetingStats>(token, '/api/v1/meetings/stats')).toMatchObject({ sampleMeetings: 0, samplesSettingUp: true });
    expect((await get<{ items: MeetingListItem[] }>(token, '/api/v1/meetings')).items).toEqual([]);

    // A worker of the same installation (its start delivers what is pending).
    worker = await createDeps(web.config, { database: web.database, role: 'worker', jobTimings: TEST_JOB_TIMINGS });
    await worker.start();
    await samplesSetUp(web.app, token);
    expect(await get<MeetingStats>(token, '/api/v1/meetings/stats')).toMatchObject({ sampleMeetings: 6, samplesSettingUp: false });
    const samples = (await get<{ items: MeetingListItem[] }>(token, '/api/v1/meetings?pageSize=50')).items;
    expect(samples).toHaveLength(6);
    expect(samples.every((m) => m.isSample && m.status === 'ready')).toBe(true);
    const notes = await get<{ insights: unknown[] }>(token, `/api/v1/meetings/${samples[0]!.id}`);
    expect(notes.insights.length).toBeGreaterThan(0);
  });

  it('are set up once per account however often the setting up runs, and not at all for an account already gone', async () => {
    const { token, userId } = await signUpUser(web.app, 'twice', { samples: false });
    await samplesSetUp(web.app, token);
    const before = (await get<{ items: MeetingListItem[] }>(token, '/api/v1/meetings?pageSize=50')).items.map((m) => m.id).sort();
    // The delivery run again (a worker that died before recording it done): the event's id names the samples.
    const delivered = await web.database.db
      .selectFrom('domain_events')
      .select(['id', 'occurred_at'])
      .where('owner_id', '=', userId)
      .where('type', '=', 'account.created')
      .executeTakeFirstOrThrow();
    await web.deps.services.samples.seed(userId, delivered.id, new Date(delivered.occurred_at));
    expect((await get<{ items: MeetingListItem[] }>(token, '/api/v1/meetings?pageSize=50')).items.map((m) => m.id).sort()).toEqual(before);

    const gone = crypto.randomUUID();
    await web.deps.services.samples.seed(gone, crypto.randomUUID());
    expect(await web.database.db.selectFrom('meetings').select('id').where('owner_id', '=', gone).execute()).toEqual([]);
  });
});
