import type { Kysely } from 'kysely';

/**
 * Slack and Microsoft Teams channels that meeting notes are posted to, a person's own or a team's
 * (`scope_key` is `user:<id>` or `team:<id>`, one channel each), with the webhook URL or bot token
 * sealed; and which events each channel was sent, so a delivery that runs again posts nothing twice.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const prefix of ['slack', 'microsoft_teams']) {
    await db.schema
      .createTable(`${prefix}_connections`)
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('scope_key', 'text', (c) => c.notNull().unique())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('team_id', 'text')
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('webhook_url', 'text')
      .addColumn('destination', 'text', (c) => c.notNull())
      .addColumn('bot_token', 'text')
      .addColumn('channel_id', 'text')
      .addColumn('notes_ready', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('share_links', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_post_at', 'text')
      .addColumn('last_error', 'text')
      .addColumn('last_error_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex(`${prefix}_connections_user`).on(`${prefix}_connections`).column('user_id').execute();
    await db.schema.createIndex(`${prefix}_connections_team`).on(`${prefix}_connections`).column('team_id').execute();
    await db.schema
      .createTable(`${prefix}_posts`)
      .addColumn('connection_id', 'text', (c) => c.notNull().references(`${prefix}_connections.id`).onDelete('cascade'))
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('posted_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${prefix}_posts_pk`, ['connection_id', 'event_id'])
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const prefix of ['slack', 'microsoft_teams']) {
    await db.schema.dropTable(`${prefix}_posts`).execute();
    await db.schema.dropTable(`${prefix}_connections`).execute();
  }
}
