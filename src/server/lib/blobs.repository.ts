import type { Db } from '../db/create-db.ts';
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
    /** The bytes the owner's blobs hold, every kind counted (their storage used). */
    usage: async (ownerId: string): Promise<number> => {
      const row = await db
        .selectFrom('blobs')
        .select((eb) => eb.fn.sum<number | string | null>('bytes').as('bytes'))
        .where('owner_id', '=', ownerId)
        .executeTakeFirst();
      return Number(row?.bytes ?? 0);
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
