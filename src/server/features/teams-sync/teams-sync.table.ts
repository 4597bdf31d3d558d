/** Tables of the teams-sync feature (migration 2026-12-07-1100). */
export type TeamsSyncAccountsTable = {
  user_id: string;
  /** The Microsoft tokens (JSON), sealed with the secret box (context: table, column, user). */
  tokens: string;
  /** Who is connected: the calendar owner's name and address. */
  account: string;
  /** 1 when Microsoft refused the tokens: no automatic sync until the person connects again. */
  needs_reconnect: number;
  last_synced_at: string | null;
  last_error: string | null;
  /** Meetings the last sync imported. */
  last_imported: number;
  /** When the worker syncs it next (an hour after a sync; sooner after a passing failure). */
  next_sync_at: string;
  created_at: string;
};

/**
 * Each Teams transcript or recording imported, by its Graph id: imported once, even when the
 * meeting made of it is deleted later (meeting_id then null).
 */
export type TeamsSyncImportsTable = {
  user_id: string;
  /** `transcript:<id>` or `recording:<id>` (Graph ids). */
  graph_id: string;
  online_meeting_id: string;
  /** Graph's contentCorrelationId: a recording and a transcript of one session share it. */
  correlation_id: string | null;
  meeting_id: string | null;
  title: string;
  imported_at: string;
};

export type TeamsSyncTables = {
  teams_sync_accounts: TeamsSyncAccountsTable;
  teams_sync_imports: TeamsSyncImportsTable;
};
