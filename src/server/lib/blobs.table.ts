import type { ColumnType } from 'kysely';

/** What a stored blob is: each kind is counted against its owner's STORAGE_QUOTA_GB alike. */
export type BlobKind = 'recording' | 'upload' | 'download' | 'export' | 'avatar' | 'waveform';

/**
 * One row per blob the store holds (migration 2026-12-06-1100), written and deleted with its bytes by
 * the blob store alone: an owner's storage used and Delete All Data are each one query on it.
 */
export type BlobsTable = {
  key: string;
  owner_id: string;
  kind: BlobKind;
  /** bigint on PostgreSQL (a recording passes 2 GiB), read back as a string there. */
  bytes: ColumnType<number | string, number, number>;
  /** ISO-8601 UTC. */
  created_at: string;
};

export type BlobTables = { blobs: BlobsTable };
