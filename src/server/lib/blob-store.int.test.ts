import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '#tests/support/test-database.ts';
import type { DbHandle } from '../db/create-db.ts';
import { isPostgres } from '../db/dialect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { MIGRATIONS } from '../db/migrations.ts';
import { createLocalBlobStore, type BlobStore } from './blob-store.ts';
import { createBlobLedger } from './blobs.repository.ts';

/** An auth_users row with whatever its required columns need (these tests are about blobs, not accounts). */
async function insertUser(handle: DbHandle, id: string): Promise<void> {
  const db = handle.db;
  const columns = isPostgres(db)
    ? (
        await sql<{ name: string; nullable: string; type: string }>`select column_name as name, is_nullable as nullable, data_type as type
          from information_schema.columns where table_name = 'auth_users' and table_schema = current_schema()`.execute(db)
      ).rows.map((c) => ({ name: c.name, required: c.nullable === 'NO', numeric: /int|numeric/i.test(c.type) }))
    : (await sql<{ name: string; notnull: number; type: string }>`select name, "notnull", type from pragma_table_info('auth_users')`.execute(db)).rows.map(
        (c) => ({ name: c.name, required: c.notnull === 1, numeric: /int/i.test(c.type) }),
      );
  const values = columns.map((c) => (c.name === 'id' ? id : c.required ? (c.numeric ? 0 : 'x') : null));
  await sql`insert into auth_users (${sql.join(columns.map((c) => sql.ref(c.name)))}) values (${sql.join(values)})`.execute(db);
}

describe('the blob store', () => {
  let handle: DbHandle;
  let dataDir: string;
  let blobs: BlobStore;
  beforeAll(async () => {
    handle = await createTestDatabase(undefined, { migrated: true });
    await migrateToLatest(handle.db);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-blobs-'));
    blobs = createLocalBlobStore(dataDir, createBlobLedger(handle.db));
  });
  afterAll(async () => {
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const fileOf = (bytes: number) => {
    const file = path.join(dataDir, `${crypto.randomUUID()}.tmp`);
    fs.writeFileSync(file, Buffer.alloc(bytes, 1));
    return file;
  };

  it('counts what each write stores against its owner, every kind alike, and forgets what is removed', async () => {
    const ada = crypto.randomUUID();
    const bob = crypto.randomUUID();
    const recording = await blobs.adopt(fileOf(1000), 'webm', { ownerId: ada, kind: 'recording' });
    const download = blobs.siblingKey(recording, 'wav');
    await blobs.produce(download, { ownerId: ada, kind: 'download' }, async (file) => fs.promises.writeFile(file, Buffer.alloc(5000)));
    await blobs.adopt(fileOf(300), 'webm', { ownerId: bob, kind: 'recording' });
    expect(await blobs.usage(ada)).toBe(6000);
    expect(await blobs.usage(bob)).toBe(300);

    await blobs.remove([download]);
    expect(await blobs.exists(download)).toBe(false);
    expect(await blobs.usage(ada)).toBe(1000);
  });

  it('counts nothing of a write that failed', async () => {
    const owner = crypto.randomUUID();
    const key = blobs.newKey('mp3');
    await expect(
      blobs.produce(key, { ownerId: owner, kind: 'download' }, async (file) => {
        await fs.promises.writeFile(file, Buffer.alloc(100));
        throw new Error('ffmpeg failed');
      }),
    ).rejects.toThrow('ffmpeg failed');
    expect(await blobs.exists(key)).toBe(false);
    expect(await blobs.usage(owner)).toBe(0);
  });

  it("removes everything one owner has, bytes and rows, and nobody else's", async () => {
    const ada = crypto.randomUUID();
    const bob = crypto.randomUUID();
    const adas = [
      await blobs.adopt(fileOf(10), 'webm', { ownerId: ada, kind: 'recording' }),
      await blobs.adopt(fileOf(20), 'ogg', { ownerId: ada, kind: 'recording' }),
    ];
    const bobs = await blobs.adopt(fileOf(30), 'webm', { ownerId: bob, kind: 'recording' });
    expect(await blobs.removeOwnedBy(ada)).toBe(2);
    for (const key of adas) expect(await blobs.exists(key)).toBe(false);
    expect(await blobs.usage(ada)).toBe(0);
    expect(await blobs.exists(bobs)).toBe(true);
    expect(await blobs.usage(bob)).toBe(30);
  });
});

describe("uploads' claims on the quota", () => {
  let handle: DbHandle;
  let dataDir: string;
  let blobs: BlobStore;
  let now = new Date('2026-12-01T10:00:00Z');
  beforeAll(async () => {
    handle = await createTestDatabase(undefined, { migrated: true });
    await migrateToLatest(handle.db);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-claims-'));
    blobs = createLocalBlobStore(
      dataDir,
      createBlobLedger(handle.db, () => now),
    );
  });
  afterAll(async () => {
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('admits at once only what fits together, and counts claims as room taken but not as storage used', async () => {
    const owner = crypto.randomUUID();
    const answers = await Promise.all(['a', 'b', 'c'].map((id) => blobs.uploads.reserve(`${id}${owner}`, owner, 600, 1000)));
    expect(answers.filter(Boolean)).toHaveLength(1);
    const admitted = ['a', 'b', 'c'][answers.indexOf(true)]!;
    expect(await blobs.uploads.roomLeft('other', owner, 1000)).toBe(400);
    // Its own claim is not counted against itself: a PATCH may grow it.
    expect(await blobs.uploads.roomLeft(`${admitted}${owner}`, owner, 1000)).toBe(1000);
    expect(await blobs.uploads.reserve(`${admitted}${owner}`, owner, 900, 1000)).toBe(true);
    expect(await blobs.usage(owner)).toBe(0);

    await blobs.uploads.release([`${admitted}${owner}`]);
    expect(await blobs.uploads.roomLeft('other', owner, 1000)).toBe(1000);
  });

  it('ends the claims of uploads begun before a time (expired), not later ones', async () => {
    const owner = crypto.randomUUID();
    now = new Date('2026-12-01T10:00:00Z');
    await blobs.uploads.reserve('old', owner, 100, 1000);
    now = new Date('2026-12-02T10:00:00Z');
    await blobs.uploads.reserve('new', owner, 200, 1000);
    expect(await blobs.uploads.releaseBefore(new Date('2026-12-02T00:00:00Z'))).toBe(1);
    expect(await blobs.uploads.roomLeft('other', owner, 1000)).toBe(800);
  });
});

describe('migration 2026-12-06-1100 (blobs)', () => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(() => handle.close());

  it('counts the recordings stored before it against their owners, at their size', async () => {
    const db = handle.db;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
    expect((await migrator.migrateTo('2026-12-06-1030-email-change-confirm-status')).error).toBeUndefined();
    const owner = crypto.randomUUID();
    await insertUser(handle, owner);
    const now = new Date().toISOString();
    const meeting = (id: string, key: string | null, bytes: number | null) =>
      sql`insert into meetings (id, owner_id, title, started_at, duration_seconds, status, source, options, summary, is_sample, created_at, updated_at, audio_key, audio_bytes)
        values (${id}, ${owner}, 'Recorded', ${now}, 60, 'ready', 'upload', '{}', '', 0, ${now}, ${now}, ${key}, ${bytes})`.execute(db);
    await meeting(crypto.randomUUID(), 'ab/abababab-0000-4000-8000-000000000001.webm', 3 * 1024 ** 3);
    await meeting(crypto.randomUUID(), 'cd/cdcdcdcd-0000-4000-8000-000000000002.wav', 1000);
    await meeting(crypto.randomUUID(), null, null);
    const exported = crypto.randomUUID();
    const dataExport = (id: string, status: string, bytes: number | null) =>
      sql`insert into data_exports (id, user_id, status, bytes, created_at) values (${id}, ${owner}, ${status}, ${bytes}, ${now})`.execute(db);
    await dataExport(exported, 'ready', 500);
    await dataExport(crypto.randomUUID(), 'running', null);

    await migrateToLatest(db);
    expect(await createBlobLedger(db).usage(owner)).toBe(3 * 1024 ** 3 + 1000 + 500);
    const rows = await db.selectFrom('blobs').select(['key', 'kind']).where('owner_id', '=', owner).orderBy('key').execute();
    expect(rows).toEqual([
      { key: 'ab/abababab-0000-4000-8000-000000000001.webm', kind: 'recording' },
      { key: 'cd/cdcdcdcd-0000-4000-8000-000000000002.wav', kind: 'recording' },
      { key: `exports/${exported}.zip`, kind: 'export' },
    ]);
  });
});
