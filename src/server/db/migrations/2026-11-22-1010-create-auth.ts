import type { Kysely } from 'kysely';

/** The auth server's tables (see features/auth/auth.table.ts). Deleting a user cascades to everything it owns. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('auth_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('encrypted_password', 'text')
    .addColumn('email_confirmed_at', 'text')
    .addColumn('confirmation_sent_at', 'text')
    .addColumn('recovery_sent_at', 'text')
    .addColumn('email_change', 'text')
    .addColumn('email_change_sent_at', 'text')
    .addColumn('last_sign_in_at', 'text')
    .addColumn('raw_app_meta_data', 'text', (c) => c.notNull())
    .addColumn('raw_user_meta_data', 'text', (c) => c.notNull())
    .addColumn('banned_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auth_users_email_key').on('auth_users').column('email').unique().execute();

  await db.schema
    .createTable('auth_identities')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('identity_data', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('auth_identities_provider_key', ['provider_id', 'provider'])
    .execute();
  await db.schema.createIndex('auth_identities_user_id_idx').on('auth_identities').column('user_id').execute();

  await db.schema
    .createTable('auth_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('aal', 'text', (c) => c.notNull())
    .addColumn('amr', 'text', (c) => c.notNull())
    .addColumn('factor_id', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('ip', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('refreshed_at', 'text')
    .execute();
  await db.schema.createIndex('auth_sessions_user_id_idx').on('auth_sessions').column('user_id').execute();

  await db.schema
    .createTable('auth_refresh_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('auth_sessions.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('parent_id', 'text')
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('child_ciphertext', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auth_refresh_tokens_session_idx').on('auth_refresh_tokens').columns(['session_id', 'revoked']).execute();

  await db.schema
    .createTable('auth_one_time_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('token_type', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('relates_to', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('auth_one_time_tokens_user_type_key', ['user_id', 'token_type'])
    .execute();
  await db.schema.createIndex('auth_one_time_tokens_hash_idx').on('auth_one_time_tokens').column('token_hash').execute();

  await db.schema
    .createTable('auth_mfa_factors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('friendly_name', 'text', (c) => c.notNull())
    .addColumn('factor_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('last_challenged_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auth_mfa_factors_user_id_idx').on('auth_mfa_factors').column('user_id').execute();

  await db.schema
    .createTable('auth_mfa_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('factor_id', 'text', (c) => c.notNull().references('auth_mfa_factors.id').onDelete('cascade'))
    .addColumn('ip_address', 'text', (c) => c.notNull())
    .addColumn('verified_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('auth_signing_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('algorithm', 'text', (c) => c.notNull())
    .addColumn('private_jwk', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('retired_at', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'auth_signing_keys',
    'auth_mfa_challenges',
    'auth_mfa_factors',
    'auth_one_time_tokens',
    'auth_refresh_tokens',
    'auth_sessions',
    'auth_identities',
    'auth_users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
