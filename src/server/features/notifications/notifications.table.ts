import type { NotificationKind } from '#shared/contracts/notifications.ts';

/** Tables of the notifications feature (migration 2026-11-24-1600). */
export type NotificationsTable = {
  id: string;
  user_id: string;
  kind: NotificationKind;
  title: string;
  body: string;
  /** A path of the web app the notification opens. */
  link: string;
  /** Whose meeting it came from (mentions, action items): their Delete All Data takes it from every bell. */
  about_user_id: string | null;
  /** One notification per person and key (an action item noticed again when notes are rewritten is not news). */
  dedupe_key: string | null;
  created_at: string;
  read_at: string | null;
};

/** One row per person and day a Team Activity digest went out: the day's second run finds it and sends nothing. */
export type NotificationDigestsTable = {
  user_id: string;
  /** The person's local date (YYYY-MM-DD, their Settings › Profile time zone). */
  day: string;
  sent_at: string;
};

/**
 * The key every unsubscribe link of a person names: links signed with an older key (revoked, or
 * from before Delete All Data) are refused.
 */
export type NotificationUnsubscribeKeysTable = {
  user_id: string;
  key_id: string;
  created_at: string;
};

export type NotificationTables = {
  notifications: NotificationsTable;
  notification_digests: NotificationDigestsTable;
  notification_unsubscribe_keys: NotificationUnsubscribeKeysTable;
};
