/** Tables of the webhooks feature (migration 2026-12-07-0110). */
export type WebhookEndpointsTable = {
  id: string;
  /** Who added it; a team endpoint also belongs to its team (`team_id`). */
  user_id: string;
  team_id: string | null;
  url: string;
  description: string;
  /** JSON array of the event types it receives. */
  events: string;
  /** The signing secret (whsec_…), sealed with the installation key. */
  secret: string;
  /** The secret before the last rotation (sealed), still signing until `previous_secret_expires_at`. */
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  /** 1 or 0 (SQLite and PostgreSQL alike). */
  enabled: number;
  disabled_reason: string | null;
  /** The first failed attempt since the last success; null while it succeeds. */
  failing_since: string | null;
  created_at: string;
};

export type WebhookDeliveriesTable = {
  /** `msg_…`: the webhook-id header, the same on every attempt. */
  id: string;
  endpoint_id: string;
  /** The domain event delivered (null for test events): one delivery per event and endpoint. */
  event_id: string | null;
  event_type: string;
  /** The JSON body sent, as signed. */
  body: string;
  status: 'pending' | 'retrying' | 'succeeded' | 'failed';
  attempts: number;
  response_code: number | null;
  error: string | null;
  created_at: string;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
};

export type WebhookTables = {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
};
