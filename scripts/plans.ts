// `npm run plans -- list | set <email> <free|pro|business|enterprise|none>`: plans assigned by the
// administrator, whose limits then apply to those accounts (see docs/billing.md).
import { loadConfig } from '#server/config.ts';
import { createDb } from '#server/db/create-db.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { plansCommand } from '#server/features/billing/plans-command.ts';
import { createPeople } from '#server/features/auth/people.ts';
import { createSecretBox, isSealed, loadSecretKey } from '#server/lib/secret-box.ts';

const config = loadConfig();
const database = createDb(config.db);
try {
  const secrets = createSecretBox(loadSecretKey(config));
  await migrateToLatest(database.db, { sealer: { seal: secrets.seal, isSealed } });
  const { code, lines } = await plansCommand(database.db, process.argv.slice(2), {
    accounts: createPeople(database.db),
    billing: config.installation.billing,
    now: new Date(),
  });
  for (const line of lines) (code === 0 ? console.log : console.error)(line);
  process.exitCode = code;
} finally {
  await database.close();
}
