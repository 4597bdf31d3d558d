// `npm run auth:rotate-keys`: make a new JWT signing key current. Tokens signed with the previous key
// stay valid (it stays published in JWKS) until they expire; running servers pick the new key up
// within a minute.
import { loadConfig } from '#server/config.ts';
import { createDb } from '#server/db/create-db.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { rotateSigningKeys } from '#server/features/auth/signing-keys.ts';
import { createSecretBox, isSealed, loadSecretKey } from '#server/lib/secret-box.ts';

const config = loadConfig();
const database = createDb(config.db);
const secrets = createSecretBox(loadSecretKey(config));
try {
  await migrateToLatest(database.db, { sealer: { seal: secrets.seal, isSealed } });
  const kid = await rotateSigningKeys(database.db, secrets, config.auth.jwtExpSeconds);
  console.log(`New signing key ${kid} is current; the previous key stays published for ${config.auth.jwtExpSeconds} s.`);
} finally {
  await database.close();
}
