/** Tables of the sharing feature (migration 2026-11-22-1200). Timestamps are ISO-8601 UTC text. */

export type ShareLinksTable = {
  id: string;
  meeting_id: string;
  owner_id: string;
  /** Hex SHA-256 of the token; the token itself is shown once at creation and never stored. */
  token_hash: string;
  created_at: string;
  /** Set when the owner revokes the link; a revoked link opens nothing. */
  revoked_at: string | null;
};

export type SharingTables = {
  share_links: ShareLinksTable;
};
