import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MeetingListResponse, MeetingStats } from '#shared/contracts/meetings.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { testDatabaseKind } from '#tests/support/test-database.ts';
import type { MeetingsService } from '../meetings/meetings.service.ts';
import { createSamplesService } from './samples.service.ts';

// Delete All Data while a new account's sample meetings are still being set up: none of them is
// there afterwards. The setting up runs here as a worker runs it (samples.seed, the real meetings and
// notes services), held at a chosen point until the test lets it go on, so the interleaving is the
// same every run. The app is a web process alone: no worker sets up the account's samples meanwhile.

let web: TestApp;
beforeAll(async () => {
  web = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' }, deps: { role: 'web' } });
});
afterAll(() => web.close());

const call = (token: string, method: 'GET' | 'DELETE', url: string, payload?: object) =>
  web.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });

/**
 * The samples' setting up, held as it reaches the sample `index`: before its transaction
 * ('between' samples) or inside it, once it has checked that the setting up is still wanted.
 */
function heldSetup(index: number, where: 'between' | 'inside') {
  const meetings = web.deps.services.meetings;
  let reached!: () => void;
  let release!: () => void;
  const atHold = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  let calls = 0;
  const createSample: MeetingsService['createSample'] = async (ownerId, sample, id, before) => {
    if (calls++ !== index) return meetings.createSample(ownerId, sample, id, before);
    if (where === 'between') {
      reached();
      await released;
      return meetings.createSample(ownerId, sample, id, before);
    }
    return meetings.createSample(ownerId, sample, id, async (trx) => {
      await before?.(trx);
      reached();
      await released;
    });
  };
  const samples = createSamplesService({
    db: web.database.db,
    meetings: { createSample },
    notes: web.deps.services.notes,
    settingUp: async () => true,
    accountExists: async () => true,
  });
  return { seed: (userId: string) => samples.seed(userId, crypto.randomUUID()), atHold, release };
}

/** What the person sees afterwards: no meeting, and no word of samples on their way. */
async function nothingLeft(token: string) {
  const list = (await call(token, 'GET', '/api/v1/meetings?pageSize=50')).json() as MeetingListResponse;
  const stats = (await call(token, 'GET', '/api/v1/meetings/stats')).json() as MeetingStats;
  return { meetings: list.items.map((m) => m.title), sampleMeetings: stats.sampleMeetings, samplesSettingUp: stats.samplesSettingUp };
}

describe('Delete All Data while the sample meetings are being set up', () => {
  it('between two samples: the ones written are deleted, the rest never appear', async () => {
    const person = await signUpUser(web.app, 'delete-between', { samples: false });
    const setup = heldSetup(2, 'between');
    const seeding = setup.seed(person.userId);
    try {
      await setup.atHold; // two samples written, with their notes
      const deleted = await call(person.token, 'DELETE', '/api/v1/me/data', { email: person.email });
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual({ deletedMeetings: 2 });
    } finally {
      setup.release();
      await seeding;
    }

    expect(await nothingLeft(person.token)).toEqual({ meetings: [], sampleMeetings: 0, samplesSettingUp: false });
  });

  // On PostgreSQL a sample's transaction and the deletion run side by side: the deletion must wait for
  // the sample being written (then delete it), or that sample would commit after the deletion looked.
  // On SQLite one transaction at a time runs, so there the deletion cannot start meanwhile.
  it.runIf(testDatabaseKind() === 'postgres')('inside a sample’s transaction: the deletion waits for it, then deletes it too', async () => {
    const person = await signUpUser(web.app, 'delete-inside', { samples: false });
    const setup = heldSetup(1, 'inside');
    const seeding = setup.seed(person.userId);
    let deleting: ReturnType<typeof call> | undefined;
    try {
      await setup.atHold; // the second sample's transaction is open, its check made
      deleting = call(person.token, 'DELETE', '/api/v1/me/data', { email: person.email });
      // The deletion is blocked on the account's setup row, held by the open transaction.
      const waitingOnSetupRow = async () =>
        Number(
          (
            await sql<{ n: number | string }>`select count(*) as n from pg_stat_activity
              where wait_event_type = 'Lock' and query like '%sample_setups%'`.execute(web.database.db)
          ).rows[0]?.n ?? 0,
        );
      await expect.poll(waitingOnSetupRow).toBeGreaterThan(0);
    } finally {
      setup.release();
      await seeding;
    }

    const deleted = await deleting;
    expect(deleted?.statusCode).toBe(200);
    // The held sample, committed before the deletion went on, is deleted with the first.
    expect(deleted?.json()).toEqual({ deletedMeetings: 2 });
    expect(await nothingLeft(person.token)).toEqual({ meetings: [], sampleMeetings: 0, samplesSettingUp: false });
  });
});
