import type { Kysely } from 'kysely';

/**
 * When the person's first visit was last seen (GET /api/v1/me in the session of that visit). Sessions
 * never expire, so the first session alone cannot tell a first visit from a return days later in the
 * same browser: a return after a break is no longer the first visit. Null for first sessions claimed
 * before this column existed: those visits count as over.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('auth_users').addColumn('first_visit_seen_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('auth_users').dropColumn('first_visit_seen_at').execute();
}
