import type { Db } from './create-db.ts';

export async function readInstanceSetting(db: Db, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('instance_settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

/**
 * Stores a value only if none exists yet and returns whichever value won, so concurrent first
 * starts of several processes agree on one generated secret.
 */
export async function claimInstanceSetting(db: Db, key: string, value: string): Promise<string> {
  await db
    .insertInto('instance_settings')
    .values({ key, value, updated_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const stored = await readInstanceSetting(db, key);
  if (stored === undefined) throw new Error(`instance setting ${key} vanished after insert`);
  return stored;
}
