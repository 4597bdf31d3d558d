// `npm run events -- failed | retry <delivery id> | status`: the event deliveries whose handler kept
// failing, and putting one back in line (the running workers deliver it again within a minute).
import { loadConfig } from '#server/config.ts';
import { createDb } from '#server/db/create-db.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { eventOperations } from '#server/events/domain-events.ts';
import { createSecretBox, isSealed, loadSecretKey } from '#server/lib/secret-box.ts';

const usage = 'Usage: npm run events -- failed | retry <delivery id> | status';
const [command, id] = process.argv.slice(2);
const config = loadConfig();
const database = createDb(config.db);
try {
  const secrets = createSecretBox(loadSecretKey(config));
  await migrateToLatest(database.db, { sealer: { seal: secrets.seal, isSealed } });
  const events = eventOperations(database.db, () => new Date());
  if (command === 'failed') {
    const failed = await events.failed(100);
    if (failed.length === 0) console.log('No failed event deliveries.');
    for (const d of failed) {
      console.log(`${d.id}  ${d.failedAt}  ${d.subscriber} ← ${d.type} (${d.subject}, event ${d.eventId}, ${d.attempts} tries)\n    ${d.error ?? ''}`);
    }
  } else if (command === 'retry' && id) {
    if (await events.revive(id)) console.log(`Delivery ${id} is pending again: a running worker delivers it within a minute.`);
    else {
      console.error(`No failed delivery has the id ${id} (\`npm run events -- failed\` lists them).`);
      process.exitCode = 1;
    }
  } else if (command === 'status') {
    const { pending, dead } = await events.counts();
    console.log(`Event deliveries: ${pending} pending, ${dead} failed.`);
  } else {
    console.error(usage);
    process.exitCode = 2;
  }
} finally {
  await database.close();
}
