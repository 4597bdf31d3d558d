import { sql } from 'kysely';
import type { Db } from '../db/create-db.ts';
import { isPostgres } from '../db/dialect.ts';
import type { BlobKind } from './blobs.table.ts';

export type BlobOwner = { ownerId: string; kind: BlobKind };

/**
 * The `blobs` table: which stored blob is whose, of what kind and how large. Only the blob store
 * writes it, beside the bytes (any adapter: the rows are the same whatever keeps the bytes).
 */
export type BlobLedger = ReturnType<typeof createBlobLedger>;

/** Keys per statement, so deleting many never makes one query with too many parameters. */
const SLICE = 500;

export function createBlobLedger(db: Db, now: () => Date = () => new Date()) {
  return {
    /** The blob under `key` is `owner`'s and holds `bytes` (a key written again is counted at its new size). */
    record: async (key: string, owner: BlobOwner, bytes: number): Promise<void> => {
      await db
        .insertInto('blobs')
        .values({ key, owner_id: owner.ownerId, kind: owner.kind, bytes, created_at: now().toISOString() })
        .onConflict((oc) => oc.column('key').doUpdateSet({ owner_id: owner.ownerId, kind: owner.kind, bytes }))
        .execute();
    },
    forget: async (keys: readonly string[]): Promise<void> => {
      for (let i = 0; i < keys.length; i += SLICE)
        await db
          .deleteFrom('blobs')
          .where('key', 'in', keys.slice(i, i + SLICE))
          .execute();
    },
    /** Forgets every blob of the owner (of these kinds, when given) and answers their keys, in one statement. */
    forgetOwnedBy: async (ownerId: string, kinds?: readonly BlobKind[]): Promise<string[]> => {
      let query = db.deleteFrom('blobs').where('owner_id', '=', ownerId);
      if (kinds) query = query.where('kind', 'in', kinds);
      return (await query.returning('key').execute()).map((row) => row.key);
    },
    /** The bytes the owner's stored blobs hold (their storage used): what uploads under way will take is not stored yet. */
    usage: async (ownerId: string): Promise<number> => sumOf(db, ownerId, { withoutUploads: true }),
    /**
     * Counts `bytes` under `key` as the owner's upload under way, when everything else of theirs
     * (stored, and their other uploads' claims) leaves that much within `limitBytes`; answers whether
     * it did. One step per owner: on PostgreSQL a transaction-scoped advisory lock on the owner, so
     * two processes admitting at once take turns; SQLite has one connection, whose transactions do.
     */
    reserve: (key: string, ownerId: string, bytes: number, limitBytes: number): Promise<boolean> =>
      db.transaction().execute(async (trx) => {
        if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(hashtext(${`blobs:${ownerId}`}))`.execute(trx);
        if ((await sumOf(trx, ownerId, { except: key })) + bytes > limitBytes) return false;
        await trx
          .insertInto('blobs')
          .values({ key, owner_id: ownerId, kind: 'upload', bytes, created_at: now().toISOString() })
          .onConflict((oc) => oc.column('key').doUpdateSet({ bytes }))
          .execute();
        return true;
      }),
    /** What the owner's blobs and uploads under way leave of `limitBytes`, `key`'s own claim not counted. */
    roomLeft: async (ownerId: string, limitBytes: number, exceptKey: string): Promise<number> =>
      Math.max(0, limitBytes - (await sumOf(db, ownerId, { except: exceptKey }))),
    /** Claims of uploads that began before `before`: their uploads expired (the sweep's safety net for files gone). */
    forgetUploadsBefore: async (before: Date): Promise<number> => {
      const result = await db.deleteFrom('blobs').where('kind', '=', 'upload').where('created_at', '<', before.toISOString()).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    /** The owner and kind of each of `keys` that has a row. */
    ownersOf: async (keys: readonly string[]): Promise<Map<string, BlobOwner>> => {
      const owners = new Map<string, BlobOwner>();
      for (let i = 0; i < keys.length; i += SLICE) {
        const rows = await db
          .selectFrom('blobs')
          .select(['key', 'owner_id', 'kind'])
          .where('key', 'in', keys.slice(i, i + SLICE))
          .execute();
        for (const row of rows) owners.set(row.key, { ownerId: row.owner_id, kind: row.kind });
      }
      return owners;
    },
    /** Which of `keys` have a row. */
    known: async (keys: readonly string[]): Promise<Set<string>> => {
      const known = new Set<string>();
      for (let i = 0; i < keys.length; i += SLICE) {
        const rows = await db
          .selectFrom('blobs')
          .select('key')
          .where('key', 'in', keys.slice(i, i + SLICE))
          .execute();
        for (const row of rows) known.add(row.key);
      }
      return known;
    },
  };
}

async function sumOf(db: Db, ownerId: string, which: { withoutUploads?: boolean; except?: string }): Promise<number> {
  let query = db
    .selectFrom('blobs')
    .select((eb) => eb.fn.sum<number | string | null>('bytes').as('bytes'))
    .where('owner_id', '=', ownerId);
  if (which.withoutUploads) query = query.where('kind', '!=', 'upload');
  if (which.except !== undefined) query = query.where('key', '!=', which.except);
  const row = await query.executeTakeFirst();
  return Number(row?.bytes ?? 0);
}
