/**
 * Process entry: config → deps (database, migrations, services) → the app (ROLE web or all) →
 * listen, and the background work (ROLE worker or all), with graceful shutdown. A bad configuration
 * stops here with a list of what to fix.
 */
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { createDeps } from './deps.ts';

function readConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

const config = readConfigOrExit();
const deps = await createDeps(config);
const app = config.role === 'worker' ? undefined : await buildApp(deps, { webDir: config.webDir });

closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
  if (err) deps.log.error({ err }, 'closing after an unhandled error');
  else deps.log.info({ signal }, 'shutting down');
  await app?.close();
  await deps.close();
});

if (app) await app.listen({ port: config.http.port, host: config.http.host });
await deps.start();
if (app) deps.log.info(`Parley is serving ${config.publicUrl} (database: ${config.db.dialect}, role: ${config.role})`);
else deps.log.info(`Parley worker is running (database: ${config.db.dialect})`);
