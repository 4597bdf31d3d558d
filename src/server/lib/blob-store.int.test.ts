import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestS3 } from '#tests/support/s3.ts';
import { createTestDatabase } from '#tests/support/test-database.ts';
import { loadConfig } from '../config.ts';
import type { DbHandle } from '../db/create-db.ts';
import { isPostgres } from '../db/dialect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { MIGRATIONS } from '../db/migrations.ts';
import { createLocalBlobStore, isRecordingKey, type BlobStore } from './blob-store.ts';
import { createBlobLedger, type BlobLedger } from './blobs.repository.ts';
import { createS3BlobStore, type S3Extras } from './s3-blob-store.ts';

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

type Adapter = {
  name: string;
  /** The store, or why this adapter cannot be tried here (no S3 server on this machine). */
  open: (ledger: BlobLedger) => Promise<{ blobs: BlobStore; extras?: S3Extras; close: () => Promise<void> } | { skipped: string }>;
};

const adapters: Adapter[] = [
  {
    name: 'on disk',
    open: async (ledger) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-blobs-'));
      return { blobs: createLocalBlobStore(dataDir, ledger), close: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'on S3 (a real server: Swift s3api)',
    open: async (ledger) => {
      const s3 = await useTestS3();
      if ('skipped' in s3) return s3;
      const config = loadConfig({ NODE_ENV: 'test', ...s3.settings, STORAGE_URL: `${s3.settings.STORAGE_URL}/${s3.prefix}` });
      if (config.storage.kind !== 's3') throw new Error('STORAGE_URL did not choose S3');
      const store = createS3BlobStore(config.storage, ledger);
      return {
        blobs: store,
        extras: store,
        close: async () => {
          store.close();
          await s3.release();
        },
      };
    },
  },
];

const sha = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');
const read = async (stream: Readable) => Buffer.concat(await stream.toArray());
/** `bytes` bytes that differ from one offset to the next (a range read from the wrong place shows). */
const CYCLE = Buffer.from(Array.from({ length: 251 }, (_, i) => (i * 7919) % 251));
const patterned = (bytes: number, from = 0) => {
  const start = from % CYCLE.length;
  return Buffer.alloc(bytes, Buffer.concat([CYCLE.subarray(start), CYCLE.subarray(0, start)]));
};

describe.each(adapters)('the blob store $name', (adapter) => {
  let handle: DbHandle;
  let opened: Awaited<ReturnType<Adapter['open']>>;
  let blobs: BlobStore;
  let tempDir: string;
  beforeAll(async () => {
    handle = await createTestDatabase(undefined, { migrated: true });
    await migrateToLatest(handle.db);
    tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-blob-files-'));
    opened = await adapter.open(createBlobLedger(handle.db));
    if (!('skipped' in opened)) blobs = opened.blobs;
  });
  afterAll(async () => {
    if (opened && !('skipped' in opened)) await opened.close();
    await handle.close();
    fs.rmSync(tempDir, { recursive: true, force: true });
  });
  /** A test of this adapter, skipped (saying why) where the adapter cannot be tried. */
  const test = (name: string, body: () => Promise<void>, timeout?: number) =>
    it(name, { timeout }, async (context) => (opened && 'skipped' in opened ? context.skip(opened.skipped) : body()));

  const fileOf = (bytes: number) => {
    const file = path.join(tempDir, `${crypto.randomUUID()}.tmp`);
    fs.writeFileSync(file, Buffer.alloc(bytes, 1));
    return file;
  };

  test('counts what each write stores against its owner, every kind alike, and forgets what is removed', async () => {
    const ada = crypto.randomUUID();
    const bob = crypto.randomUUID();
    const source = fileOf(1000);
    const recording = await blobs.adopt(source, 'webm', { ownerId: ada, kind: 'recording' });
    expect(fs.existsSync(source)).toBe(false);
    const download = blobs.siblingKey(recording, 'wav');
    await blobs.produce(download, { ownerId: ada, kind: 'download' }, async (file) => fs.promises.writeFile(file, Buffer.alloc(5000)));
    await blobs.adopt(fileOf(300), 'webm', { ownerId: bob, kind: 'recording' });
    expect(await blobs.usage(ada)).toBe(6000);
    expect(await blobs.usage(bob)).toBe(300);
    expect(await blobs.size(download)).toBe(5000);

    await blobs.remove([download]);
    expect(await blobs.exists(download)).toBe(false);
    expect(await blobs.usage(ada)).toBe(1000);
  });

  test("keeps a finished upload under a key of its own: the same for the same upload, a recording's like any other", async () => {
    const owner = crypto.randomUUID();
    const uploadId = crypto.randomBytes(16).toString('hex');
    const key = blobs.uploadKey(uploadId, 'webm');
    expect(blobs.uploadKey(uploadId, 'webm')).toBe(key);
    expect(blobs.uploadKey(crypto.randomBytes(16).toString('hex'), 'webm')).not.toBe(key);
    expect(isRecordingKey(key)).toBe(true);
    expect(blobs.siblingKey(key, 'mp3')).toBe(key.replace(/\.webm$/, '.mp3'));
    expect(() => blobs.uploadKey('../etc/passwd', 'webm')).toThrow('invalid upload id');

    const source = fileOf(1000);
    await blobs.adoptAs(key, source, { ownerId: owner, kind: 'recording' });
    expect(fs.existsSync(source)).toBe(false);
    expect(await blobs.size(key)).toBe(1000);
    // Adopted again (a process that ended before it let go of the source): replaced, counted once.
    await blobs.adoptAs(key, fileOf(1200), { ownerId: owner, kind: 'recording' });
    expect(await blobs.size(key)).toBe(1200);
    expect(await blobs.usage(owner)).toBe(1200);
    await blobs.remove([key]);
  });

  test('counts nothing of a write that failed', async () => {
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

  test("removes everything one owner has, bytes and rows, and nobody else's", async () => {
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

  test('reads back what was put, whole and by range, states its size and time, and lists it by prefix', async () => {
    const owner = crypto.randomUUID();
    const before = Date.now();
    const key = blobs.keyFor('avatars', owner, 'png');
    const bytes = patterned(3000);
    expect(await blobs.put(key, bytes, { ownerId: owner, kind: 'avatar' })).toBe(3000);
    expect(await read(blobs.createReadStream(key))).toEqual(bytes);
    expect(await read(blobs.createReadStream(key, { start: 1000, end: 1009 }))).toEqual(bytes.subarray(1000, 1010));
    const stat = await blobs.stat(key);
    expect(stat?.bytes).toBe(3000);
    // Object stores keep whole seconds.
    expect(stat!.modifiedAt.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
    expect((await blobs.list('avatars/')).map((blob) => blob.key)).toContain(key);
    expect((await blobs.list('exports/')).map((blob) => blob.key)).not.toContain(key);
    // A stream put replaces what was there, and is counted at its new size.
    expect(await blobs.put(key, Readable.from([patterned(10), patterned(5)]), { ownerId: owner, kind: 'avatar' })).toBe(15);
    expect(await blobs.usage(owner)).toBe(15);

    await blobs.remove([key]);
    expect(await blobs.stat(key)).toBeUndefined();
    expect((await blobs.list('avatars/')).map((blob) => blob.key)).not.toContain(key);
    await expect(read(blobs.createReadStream(key))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test('lends a local file holding the bytes, for tools that read files', async () => {
    const owner = crypto.randomUUID();
    const key = await blobs.adopt(fileOf(2048), 'wav', { ownerId: owner, kind: 'recording' });
    let lent = '';
    const answer = await blobs.withLocalFile(key, async (file) => {
      lent = file;
      expect(fs.readFileSync(file)).toEqual(Buffer.alloc(2048, 1));
      return 'done';
    });
    expect(answer).toBe('done');
    // What was lent is the stored file itself, or a copy that is gone once the tool is done.
    if (fs.existsSync(lent)) expect(await blobs.exists(key)).toBe(true);
    else expect(path.basename(lent)).toBe(path.basename(key));
    await expect(blobs.withLocalFile(blobs.newKey('wav'), async () => 'never')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test('stores a large stream in parts and reads any range of it back, across the parts', async () => {
    const owner = crypto.randomUUID();
    const key = blobs.newKey('webm');
    const chunk = 1024 * 1024;
    const chunks = 9; // two parts of the S3 adapter's 8 MB
    const stream = Readable.from(
      (function* () {
        for (let i = 0; i < chunks; i += 1) yield patterned(chunk, i * chunk);
      })(),
    );
    expect(await blobs.put(key, stream, { ownerId: owner, kind: 'recording' })).toBe(chunks * chunk);
    expect(await blobs.size(key)).toBe(chunks * chunk);
    const boundary = 8 * 1024 * 1024;
    expect(await read(blobs.createReadStream(key, { start: boundary - 100, end: boundary + 99 }))).toEqual(patterned(200, boundary - 100));
    const whole = crypto.createHash('sha256');
    for await (const part of blobs.createReadStream(key)) whole.update(part as Buffer);
    const expected = crypto.createHash('sha256');
    for (let i = 0; i < chunks; i += 1) expected.update(patterned(chunk, i * chunk));
    expect(whole.digest('hex')).toBe(expected.digest('hex'));
    await blobs.remove([key]);
  }, 120_000);

  it('a presigned link reads the object, and an altered one is refused', async (context) => {
    if ('skipped' in opened || !opened.extras) return context.skip('skipped' in opened ? opened.skipped : 'presigned links are an object store’s');
    const owner = crypto.randomUUID();
    const key = blobs.keyFor('exports', owner, 'zip');
    const bytes = patterned(500);
    await blobs.put(key, bytes, { ownerId: owner, kind: 'export' });
    const link = await opened.extras.presignedUrl(key, 60);
    const answer = await fetch(link);
    expect(answer.status).toBe(200);
    expect(sha(Buffer.from(await answer.arrayBuffer()))).toBe(sha(bytes));
    const ranged = await fetch(link, { headers: { range: 'bytes=10-19' } });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual(bytes.subarray(10, 20));

    const url = new URL(link);
    const signature = url.searchParams.get('X-Amz-Signature')!;
    url.searchParams.set('X-Amz-Signature', `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`);
    expect((await fetch(url)).status).toBe(403);
    // Another object under the same signature is refused too.
    const other = new URL(link.replace(key, blobs.keyFor('exports', crypto.randomUUID(), 'zip')));
    expect((await fetch(other)).status).toBe(403);
    await blobs.remove([key]);
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
