/** Table of the api-tokens feature (migration 2026-12-07-0100). */
export type ApiTokensTable = {
  id: string;
  user_id: string;
  name: string;
  /** SHA-256 (hex) of the token; the token itself is never stored. */
  token_hash: string;
  /** The token's first characters, shown to tell tokens apart. */
  preview: string;
  /** Comma-separated scopes: `read`, `write`. */
  scopes: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
};

export type ApiTokenTables = {
  api_tokens: ApiTokensTable;
};
