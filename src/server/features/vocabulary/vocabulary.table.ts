/** Tables of the vocabulary feature (migration 2026-12-08-0300). Terms are a JSON array of strings; timestamps ISO-8601 UTC text. */

export type UserVocabulariesTable = {
  user_id: string;
  terms: string;
  updated_at: string;
};

export type TeamVocabulariesTable = {
  team_id: string;
  terms: string;
  /** Who saved it last; null once that account is deleted. */
  updated_by: string | null;
  updated_at: string;
};

export type VocabularyTables = {
  user_vocabularies: UserVocabulariesTable;
  team_vocabularies: TeamVocabulariesTable;
};
