import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

/**
 * Domain events (the transactional outbox): each change records what happened in the same
 * transaction, with one delivery row per subscriber that the job queue works off. `seq` orders a
 * subject's events; a delivery row is kept once done (the event id is what makes handlers idempotent)
 * until the events are pruned.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('domain_events')
    .addColumn('seq', isPostgres(db) ? 'bigserial' : 'integer', (c) => (isPostgres(db) ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('owner_id', 'text')
    .addColumn('team_id', 'text')
    .addColumn('subject_type', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('domain_events_owner').on('domain_events').column('owner_id').execute();
  await db.schema.createIndex('domain_events_occurred').on('domain_events').column('occurred_at').execute();

  await db.schema
    .createTable('event_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_seq', isPostgres(db) ? 'bigint' : 'integer', (c) => c.notNull().references('domain_events.seq').onDelete('cascade'))
    .addColumn('subscriber', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('event_deliveries_event_subscriber', ['event_seq', 'subscriber'])
    .execute();
  await db.schema.createIndex('event_deliveries_pending').on('event_deliveries').columns(['status', 'subscriber', 'subject', 'event_seq']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('event_deliveries').execute();
  await db.schema.dropTable('domain_events').execute();
}
