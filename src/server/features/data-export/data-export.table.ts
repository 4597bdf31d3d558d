export type DataExportsTable = {
  id: string;
  user_id: string;
  status: 'queued' | 'running' | 'ready' | 'failed';
  /** 0..1 while running. */
  progress: number | null;
  bytes: number | null;
  failure_reason: string | null;
  created_at: string;
  ready_at: string | null;
  expires_at: string | null;
};

export type DataExportTables = { data_exports: DataExportsTable };
