import type { Generated } from 'kysely';

/** The domain events' tables (migration 2026-12-06-1000). Timestamps are ISO-8601 UTC text. */
export type DomainEventsTable = {
  /** Recording order: deliveries of one subject follow it. */
  seq: Generated<number>;
  id: string;
  type: string;
  version: number;
  occurred_at: string;
  actor_id: string | null;
  owner_id: string | null;
  team_id: string | null;
  subject_type: string;
  subject_id: string;
  /** JSON of the payload, checked against its type's schema when delivered. */
  payload: string;
};

/** One row per event and subscriber, written with the event: what is left to deliver, and what failed. */
export type EventDeliveriesTable = {
  id: string;
  event_seq: number;
  subscriber: string;
  /** `<subject_type>:<subject_id>`: a subscriber gets one subject's events in order. */
  subject: string;
  status: 'pending' | 'done' | 'dead';
  attempts: number;
  last_error: string | null;
  updated_at: string;
};

export type EventTables = { domain_events: DomainEventsTable; event_deliveries: EventDeliveriesTable };
