/** Table of the billing feature (migration 2026-12-07-1000). */
export type BillingAccountsTable = {
  user_id: string;
  /** The plan this installation's administrator assigned (`npm run plans -- set`); null: none. */
  assigned_plan: string | null;
  updated_at: string;
};

export type BillingTables = {
  billing_accounts: BillingAccountsTable;
};
