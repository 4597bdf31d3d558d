import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_IMPORT_SEGMENTS, MAX_IMPORT_SPEAKERS } from '#shared/contracts/meetings.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { createImportedMeeting } from '../meeting-lifecycle.repository.ts';

// The largest transcript an import takes, written while the server answers others: SQLite's
// statements run on the server's thread, so the writer must hand the event loop back between batches.
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' }, listen: true });
});
afterAll(() => t.close());

it('answers /healthz again and again while the largest import allowed is written, and stores all of it', { timeout: 120_000 }, async () => {
  const owner = await signUpUser(t.app, 'responsive');
  const words = 'the budget review covers spending plans for the next quarter and hiring in zanzibar';
  const transcript = {
    speakers: Array.from({ length: MAX_IMPORT_SPEAKERS }, (_, i) => ({ label: `Speaker ${i + 1}`, displayName: `Person ${i}` })),
    segments: Array.from({ length: MAX_IMPORT_SEGMENTS }, (_, i) => ({
      speaker: i % MAX_IMPORT_SPEAKERS,
      startMs: i * 2000,
      endMs: i * 2000 + 1500,
      text: `${words} ${i}`,
    })),
  };
  let writing = true;
  const write = createImportedMeeting(
    t.deps.database.db,
    { ownerId: owner.userId, title: 'All day', options: {}, participants: [], durationSeconds: 40_000 },
    transcript,
  ).finally(() => {
    writing = false;
  });
  // Over a real socket, and counted, not timed: each answer needs the event loop to reach its I/O,
  // which a writer that never hands the thread back does not let it do until it has finished.
  let answered = 0;
  while (writing) {
    const health = await fetch(`${t.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    if (writing) answered += 1;
  }
  const id = await write;
  expect(answered).toBeGreaterThanOrEqual(20);
  const stored = await t.deps.database.db
    .selectFrom('transcript_segments')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('meeting_id', '=', id)
    .executeTakeFirstOrThrow();
  expect(Number(stored.n)).toBe(MAX_IMPORT_SEGMENTS);
  const found = await t.app.inject({ method: 'GET', url: '/api/v1/meetings?q=zanzibar', headers: { authorization: `Bearer ${owner.token}` } });
  expect(found.json(), found.body.slice(0, 300)).toMatchObject({ total: 1 });
});
