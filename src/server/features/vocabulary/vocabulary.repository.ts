import type { Db } from '#server/db/create-db.ts';

/** Stored terms read back: anything that is not an array of strings reads as no terms. */
function parseTerms(text: string | undefined): string[] {
  if (text === undefined) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

export async function userTerms(db: Db, userId: string): Promise<string[]> {
  const row = await db.selectFrom('user_vocabularies').select('terms').where('user_id', '=', userId).executeTakeFirst();
  return parseTerms(row?.terms);
}

export async function saveUserTerms(db: Db, userId: string, terms: readonly string[], now: Date): Promise<void> {
  const values = { terms: JSON.stringify(terms), updated_at: now.toISOString() };
  await db
    .insertInto('user_vocabularies')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
}

export async function removeUserTerms(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('user_vocabularies').where('user_id', '=', userId).execute();
}

/** The terms of these teams, by team id (a team without any is left out). */
export async function teamTerms(db: Db, teamIds: readonly string[]): Promise<Map<string, string[]>> {
  if (teamIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('team_vocabularies')
    .select(['team_id', 'terms'])
    .where('team_id', 'in', [...teamIds])
    .execute();
  return new Map(rows.map((r) => [r.team_id, parseTerms(r.terms)]));
}

export async function saveTeamTerms(db: Db, teamId: string, userId: string, terms: readonly string[], now: Date): Promise<void> {
  const values = { terms: JSON.stringify(terms), updated_by: userId, updated_at: now.toISOString() };
  await db
    .insertInto('team_vocabularies')
    .values({ team_id: teamId, ...values })
    .onConflict((oc) => oc.column('team_id').doUpdateSet(values))
    .execute();
}
