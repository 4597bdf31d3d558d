import type { Kysely } from 'kysely';

/**
 * Teams (features/teams/teams.table.ts). `team_members`: one row per person and team with the role
 * (owner | admin | member). `team_invitations`: by email or as a copyable link, with a preset role;
 * only a SHA-256 of the token is kept; expired after 7 days, revoked, or accepted once. `team_activity`:
 * what happened in a team, for its Activity tab. Deleting a team or a person takes their memberships
 * with them; an inviter or actor who is gone leaves the invitation or event in place without a name.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('teams')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('auth_users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('teams_created_by_idx').on('teams').column('created_by').execute();

  await db.schema
    .createTable('team_members')
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('joined_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_members_pkey', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('team_members_user_idx').on('team_members').column('user_id').execute();

  await db.schema
    .createTable('team_invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('email', 'text')
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('invited_by', 'text', (c) => c.references('auth_users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('accepted_at', 'text')
    .addColumn('accepted_by', 'text', (c) => c.references('auth_users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('team_invitations_token_hash_key').on('team_invitations').column('token_hash').unique().execute();
  await db.schema.createIndex('team_invitations_team_idx').on('team_invitations').columns(['team_id', 'created_at']).execute();
  // Behind the set-null cascades from auth_users.
  await db.schema.createIndex('team_invitations_invited_by_idx').on('team_invitations').column('invited_by').execute();
  await db.schema.createIndex('team_invitations_accepted_by_idx').on('team_invitations').column('accepted_by').execute();

  await db.schema
    .createTable('team_activity')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('actor_id', 'text', (c) => c.references('auth_users.id').onDelete('set null'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('meeting_id', 'text')
    .addColumn('meeting_title', 'text')
    .addColumn('subject', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('team_activity_team_idx').on('team_activity').columns(['team_id', 'created_at']).execute();
  await db.schema.createIndex('team_activity_actor_idx').on('team_activity').column('actor_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('team_activity').execute();
  await db.schema.dropTable('team_invitations').execute();
  await db.schema.dropTable('team_members').execute();
  await db.schema.dropTable('teams').execute();
}
