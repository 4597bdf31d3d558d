/** Tables of the slack feature (migration 2026-12-07-0300). */
export type SlackConnectionsTable = {
  id: string;
  /** `user:<id>` or `team:<id>`: one channel each. */
  scope_key: string;
  /** Who connected it. */
  user_id: string;
  team_id: string | null;
  method: 'webhook' | 'app';
  /** Sealed (secret-box, bound to this row). */
  webhook_url: string | null;
  /** What the person is shown: the URL's host and "…", or the app's channel name. */
  destination: string;
  /** Sealed bot token ("Add to Slack"). */
  bot_token: string | null;
  channel_id: string | null;
  notes_ready: number;
  share_links: number;
  last_post_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  created_at: string;
  updated_at: string;
};

/** Which notes.ready events each channel was sent (a delivery that runs again posts nothing twice). */
export type SlackPostsTable = {
  connection_id: string;
  event_id: string;
  posted_at: string;
};

export type SlackTables = {
  slack_connections: SlackConnectionsTable;
  slack_posts: SlackPostsTable;
};
