import { expressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Database } from '#server/db/database.ts';

/**
 * The one definition of which meetings a person may read: lists, search (across meetings and
 * inside one) and the meeting itself go through it. Today a meeting is visible to its owner only;
 * meetings shared with a team become visible to its members by widening this predicate (an `or`
 * over the team tables), and every read follows. Writes stay with the owner (`owned`).
 */
export function visibleTo(callerId: string): Expression<SqlBool> {
  const eb = expressionBuilder<Database, 'meetings'>();
  return eb('meetings.owner_id', '=', callerId);
}
