/**
 * Process entry: config → deps (database + migrations) → app → listen, with graceful shutdown.
 * A bad configuration stops here with a list of what to fix.
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
const app = await buildApp(deps, { webDir: config.webDir });

closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
  if (err) app.log.error({ err }, 'closing after an unhandled error');
  else app.log.info({ signal }, 'shutting down');
  await app.close();
  await deps.close();
});

await app.listen({ port: config.http.port, host: config.http.host });
app.log.info(`Parley is serving ${config.publicUrl} (database: ${config.db.dialect})`);
