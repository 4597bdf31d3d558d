import type { Db } from './create-db.ts';

/**
 * Runs `work` in a transaction, or inside the caller's when `db` is one already: a repository's
 * several statements stay atomic on their own, and join a service's transaction (one that records
 * domain events with the change) when called inside it.
 */
export function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
