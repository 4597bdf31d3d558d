import type { Selectable } from 'kysely';

/**
 * Tables of the Supabase-compatible auth server. Timestamps are ISO-8601 UTC strings and JSON is
 * stored as text, so one set of queries serves SQLite and PostgreSQL alike.
 */

export type AuthUsersTable = {
  id: string;
  /** Lower-cased; '' for none. */
  email: string;
  encrypted_password: string | null;
  email_confirmed_at: string | null;
  confirmation_sent_at: string | null;
  recovery_sent_at: string | null;
  /** Pending email change: the new address and when its confirmation went out. */
  email_change: string | null;
  email_change_sent_at: string | null;
  /** Secure email change: 0 until the current or the new address confirms, 1 once one of them has; the other one completes it. */
  email_change_confirm_status: number;
  last_sign_in_at: string | null;
  /** The session of the person's first visit (GET /api/v1/me); '' for accounts older than this record; null until then. */
  first_session_id: string | null;
  /** When the first visit was last seen; a return after FIRST_VISIT_BREAK_MS ends it (first_session_id becomes ''). */
  first_visit_seen_at: string | null;
  raw_app_meta_data: string;
  raw_user_meta_data: string;
  banned_until: string | null;
  created_at: string;
  updated_at: string;
};

export type AuthIdentitiesTable = {
  /** identity_id on the wire. */
  id: string;
  /** The provider's subject; the user id for the email provider. */
  provider_id: string;
  user_id: string;
  provider: string;
  identity_data: string;
  email: string;
  last_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
};

export type AuthSessionsTable = {
  id: string;
  user_id: string;
  aal: 'aal1' | 'aal2';
  /** JSON array of { method, timestamp }, most recent first. */
  amr: string;
  factor_id: string | null;
  /** 1 while a session opened by a recovery link or code has not set its new password yet. */
  recovery: 0 | 1;
  user_agent: string | null;
  ip: string | null;
  created_at: string;
  updated_at: string;
  refreshed_at: string | null;
};

export type AuthRefreshTokensTable = {
  id: string;
  session_id: string;
  /** SHA-256 of the token; the token itself is never stored. */
  token_hash: string;
  parent_id: string | null;
  /** 0 while this is the session's active token, 1 once it has been rotated away. */
  revoked: number;
  /**
   * The successor token, encrypted with a key derived from this token. Only someone holding this
   * token can recover its successor, which is what lets a client that lost a refresh response
   * converge on the active token without the server storing any usable token.
   */
  child_ciphertext: string | null;
  created_at: string;
  updated_at: string;
};

export type AuthOneTimeTokensTable = {
  id: string;
  user_id: string;
  /** email_change_token goes to the new address, email_change_token_current to the current one. */
  token_type: 'confirmation_token' | 'recovery_token' | 'email_change_token' | 'email_change_token_current';
  /** Hex SHA-224 of email + OTP, as in the email link. */
  token_hash: string;
  relates_to: string;
  created_at: string;
};

export type AuthMfaFactorsTable = {
  id: string;
  user_id: string;
  friendly_name: string;
  factor_type: 'totp';
  status: 'unverified' | 'verified';
  secret: string;
  last_challenged_at: string | null;
  created_at: string;
  updated_at: string;
};

export type AuthMfaChallengesTable = {
  id: string;
  factor_id: string;
  ip_address: string;
  verified_at: string | null;
  created_at: string;
};

export type AuthSigningKeysTable = {
  /** The JWT `kid`. */
  id: string;
  algorithm: 'ES256';
  private_jwk: string;
  public_jwk: string;
  /** current signs new tokens; previous is still published until its tokens expire. */
  status: 'current' | 'previous';
  created_at: string;
  retired_at: string | null;
};

export type AuthTables = {
  auth_users: AuthUsersTable;
  auth_identities: AuthIdentitiesTable;
  auth_sessions: AuthSessionsTable;
  auth_refresh_tokens: AuthRefreshTokensTable;
  auth_one_time_tokens: AuthOneTimeTokensTable;
  auth_mfa_factors: AuthMfaFactorsTable;
  auth_mfa_challenges: AuthMfaChallengesTable;
  auth_signing_keys: AuthSigningKeysTable;
};

// The rows as the feature works with them: GoTrue's model is row-shaped, so a row is the domain object.
export type UserRow = Selectable<AuthUsersTable>;
export type IdentityRow = Selectable<AuthIdentitiesTable>;
export type SessionRow = Selectable<AuthSessionsTable>;
export type RefreshTokenRow = Selectable<AuthRefreshTokensTable>;
export type OneTimeTokenRow = Selectable<AuthOneTimeTokensTable>;
export type FactorRow = Selectable<AuthMfaFactorsTable>;
export type ChallengeRow = Selectable<AuthMfaChallengesTable>;
export type SigningKeyRow = Selectable<AuthSigningKeysTable>;
