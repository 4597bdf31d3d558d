import {
  readSettingsDocument,
  SETTINGS_TABS,
  settingsDefaults,
  type SettingsPatch,
  type SettingsResponse,
  type SettingsTab,
  type UserSettings,
} from '#shared/contracts/settings.ts';
import type { Db } from '#server/db/create-db.ts';
import { AppError } from '#server/lib/app-error.ts';

/** Whose settings: the defaults of the Billing tab come from the account itself. */
export type SettingsOwner = { id: string; name?: string | null; email?: string | null };

type StoredRow = { document: unknown; revision: number } | undefined;

async function readRow(db: Db, userId: string): Promise<StoredRow> {
  const row = await db.selectFrom('user_settings').select(['settings', 'revision']).where('user_id', '=', userId).executeTakeFirst();
  if (!row) return undefined;
  return { document: parseJson(row.settings), revision: Number(row.revision) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // an unreadable document reads as the defaults rather than breaking the screen
  }
}

/** Every tab of the person's settings: what they saved, the defaults for the rest. */
export async function getUserSettings(db: Db, owner: SettingsOwner): Promise<UserSettings> {
  return (await getSettingsResponse(db, owner)).settings;
}

/** The settings and which tabs were saved (the web app imports a browser's old local copy only into those that were not). */
export async function getSettingsResponse(db: Db, owner: SettingsOwner): Promise<SettingsResponse> {
  const row = await readRow(db, owner.id);
  return toResponse(row?.document, owner);
}

function toResponse(document: unknown, owner: SettingsOwner): SettingsResponse {
  const savedTabs = isRecord(document) ? SETTINGS_TABS.filter((tab) => isRecord(document[tab])) : [];
  return { settings: readSettingsDocument(document, settingsDefaults(owner)), savedTabs };
}

/** Attempts before a save gives up when other saves keep landing between its read and its write. */
const MAX_ATTEMPTS = 5;

/**
 * Merges the given fields into one tab and stores the whole document, over exactly the revision it
 * read: a concurrent save of another tab (or the same one) is re-read and merged, never lost. Works
 * the same on SQLite and PostgreSQL without row locks.
 */
export async function updateUserSettingsTab<T extends SettingsTab>(
  db: Db,
  owner: SettingsOwner,
  tab: T,
  patch: SettingsPatch<T>,
  now = new Date(),
): Promise<SettingsResponse> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const row = await readRow(db, owner.id);
    const current = readSettingsDocument(row?.document, settingsDefaults(owner));
    // Only the saved tab is written out in full; tabs never saved keep following the defaults.
    const document = { ...(isRecord(row?.document) ? row.document : {}), [tab]: { ...current[tab], ...definedFields(patch) } };
    const values = { settings: JSON.stringify(document), revision: (row?.revision ?? 0) + 1, updated_at: now.toISOString() };
    const written = row
      ? await db
          .updateTable('user_settings')
          .set(values)
          .where('user_id', '=', owner.id)
          .where('revision', '=', row.revision)
          .executeTakeFirst()
          .then((result) => Number(result.numUpdatedRows))
      : await db
          .insertInto('user_settings')
          .values({ user_id: owner.id, ...values })
          .onConflict((oc) => oc.column('user_id').doNothing())
          .executeTakeFirst()
          .then((result) => Number(result.numInsertedOrUpdatedRows ?? 0));
    if (written === 1) return toResponse(document, owner);
  }
  throw new AppError('CONFLICT', 'Your settings were changed somewhere else at the same moment. Please save again.');
}

/** `{ field: undefined }` in a patch means "not sent", never "clear it". */
function definedFields(patch: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The stored documents of every person who saved settings, for the auto-delete sweep. */
export async function listStoredSettings(db: Db): Promise<{ userId: string; settings: UserSettings }[]> {
  const rows = await db.selectFrom('user_settings').select(['user_id', 'settings']).execute();
  return rows.map((row) => ({ userId: row.user_id, settings: readSettingsDocument(parseJson(row.settings), settingsDefaults({})) }));
}

/** Forgets a person's settings: the next read answers the defaults. */
export async function deleteUserSettings(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('user_settings').where('user_id', '=', userId).execute();
}
