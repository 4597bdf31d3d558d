// `npm run models -- list | fetch <name> | remove <name>`: speech models for the sherpa-onnx engine,
// downloaded once into $DATA_DIR/models (PARLEY_MODELS_BASE_URL names a mirror). See README.md.
import { loadConfig } from '#server/config.ts';
import { MODEL_CATALOG } from '#server/features/transcription/models/catalog.ts';
import { runModelsCommand } from '#server/features/transcription/models/models-cli.ts';

const config = loadConfig();
const abort = new AbortController();
// Ctrl-C during a download: the staging folder is removed before the process ends.
process.once('SIGINT', () => abort.abort());
process.once('SIGTERM', () => abort.abort());

const code = await runModelsCommand(process.argv.slice(2), {
  catalog: MODEL_CATALOG,
  modelsDir: config.models.dir,
  baseUrl: config.models.baseUrl,
  stdout: process.stdout,
  stderr: process.stderr,
  signal: abort.signal,
});
process.exitCode = abort.signal.aborted ? 130 : code;
