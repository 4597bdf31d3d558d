// `npm run db:migrate`: apply pending migrations without starting the server (the server also
// migrates at start; this is for operators who migrate as a separate deploy step).
import { loadConfig } from '#server/config.ts';
import { createDb } from '#server/db/create-db.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { createSecretBox, isSealed, loadSecretKey } from '#server/lib/secret-box.ts';

const config = loadConfig();
const database = createDb(config.db);
// The key seals secrets stored before encryption at rest (the same key the server uses).
const secrets = createSecretBox(loadSecretKey(config));
try {
  const result = await migrateToLatest(database.db, { sealer: { seal: secrets.seal, isSealed } });
  const applied = result.results?.filter((r) => r.status === 'Success').map((r) => r.migrationName) ?? [];
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : `The ${config.db.dialect} database is up to date.`);
} finally {
  await database.close();
}
