import type { Db } from '#server/db/create-db.ts';

/**
 * Whether a sample may still be written, asked inside that sample's own transaction: the account's
 * row is written (an upsert that changes nothing once it is there) and read back in one statement.
 * Writing it takes the row's lock until the transaction ends, so Delete All Data's mark (below) waits
 * for a sample being written, and a sample begun after the mark waits for it and then reads it.
 */
export async function setupStillWanted(trx: Db, userId: string): Promise<boolean> {
  const row = await trx
    .insertInto('sample_setups')
    .values({ user_id: userId, called_off: 0 })
    .onConflict((oc) => oc.column('user_id').doUpdateSet((eb) => ({ called_off: eb.ref('sample_setups.called_off') })))
    .returning('called_off')
    .executeTakeFirstOrThrow();
  return row.called_off === 0;
}

/** Delete All Data: whatever of the setting up is still to come writes nothing (committed before the data is deleted). */
export async function callOffSetup(db: Db, userId: string): Promise<void> {
  await db
    .insertInto('sample_setups')
    .values({ user_id: userId, called_off: 1 })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ called_off: 1 }))
    .execute();
}

export async function setupCalledOff(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom('sample_setups').select('called_off').where('user_id', '=', userId).executeTakeFirst();
  return row?.called_off === 1;
}
