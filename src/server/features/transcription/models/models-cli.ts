import path from 'node:path';
import cliProgress from 'cli-progress';
import { DEFAULT_MODELS_BASE_URL, findCatalogEntry, modelUrl, type CatalogEntry } from './catalog.ts';
import { fetchModel, formatBytes, ModelFetchError, type DownloadProgress } from './model-download.ts';
import { CHECKSUMS_FILE, listInstalledModels, readInstalledModel, readRecordedChecksums, removeInstalledModel } from './model-store.ts';
import { BUNDLED_SILERO_VAD } from './silero-vad.ts';

export type CliOutput = { write(text: string): unknown; isTTY?: boolean };

export type ModelsCliContext = {
  catalog: readonly CatalogEntry[];
  modelsDir: string;
  /** PARLEY_MODELS_BASE_URL, or undefined for the sherpa-onnx releases. */
  baseUrl: string | undefined;
  stdout: CliOutput;
  stderr: CliOutput;
  signal?: AbortSignal;
};

const USAGE = `Usage: npm run models -- <command>

  list            the speech models Parley can use, and which are installed
  fetch <name>    download, verify and install a model into $DATA_DIR/models/<name>
  remove <name>   delete an installed model
`;

/** `npm run models -- list | fetch <name> | remove <name>`; resolves to the process exit code. */
export async function runModelsCommand(args: string[], context: ModelsCliContext): Promise<number> {
  const [command, name, ...rest] = args;
  const fail = (message: string, code = 1) => {
    context.stderr.write(`Error: ${message}\n`);
    return code;
  };
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    context.stdout.write(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command === 'list' && name === undefined) return list(context);
  if ((command === 'fetch' || command === 'remove') && name !== undefined && rest.length === 0) {
    const entry = findCatalogEntry(context.catalog, name);
    if (command === 'remove') return remove(name, context, fail);
    if (!entry) return fail(`there is no model called "${name}". Run "npm run models -- list" for the names.`, 2);
    return fetch(entry, context, fail);
  }
  context.stderr.write(USAGE);
  return 2;
}

function list(context: ModelsCliContext): number {
  const installed = new Map(listInstalledModels(context.modelsDir).map((m) => [m.manifest.name, m]));
  const recorded = readRecordedChecksums(context.modelsDir);
  const rows = context.catalog.map((entry) => {
    const model = installed.get(entry.name);
    const checksum = entry.sha256 ? 'published' : recorded[entry.name] ? 'recorded at first download' : 'none published';
    return [entry.name, entry.kind, `${entry.approxMb} MB`, model ? 'installed' : '-', checksum, entry.description];
  });
  for (const [name, model] of installed) {
    if (!findCatalogEntry(context.catalog, name))
      rows.push([name, model.manifest.kind, formatBytes(model.manifest.bytes), 'installed', model.manifest.checksum, '(no longer in the catalog)']);
  }
  const header = ['NAME', 'KIND', 'DOWNLOAD', 'STATUS', 'CHECKSUM', 'WHAT IT IS'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `${cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')}\n`;
  context.stdout.write(line(header));
  for (const row of rows) context.stdout.write(line(row));
  context.stdout.write(`\nModels go to ${context.modelsDir}. Silero VAD v4 is always available from ${BUNDLED_SILERO_VAD.specifier} (no download).\n`);
  return 0;
}

async function fetch(entry: CatalogEntry, context: ModelsCliContext, fail: (message: string) => number): Promise<number> {
  const existing = readInstalledModel(context.modelsDir, entry.name);
  if (existing) {
    context.stdout.write(`${entry.name} is already installed in ${existing.dir}. Remove it first to download it again.\n`);
    return 0;
  }
  const baseUrl = context.baseUrl ?? DEFAULT_MODELS_BASE_URL;
  context.stdout.write(`Fetching ${entry.name} (${entry.bytes ? formatBytes(entry.bytes) : `about ${entry.approxMb} MB`}) from ${modelUrl(baseUrl, entry)}\n`);
  try {
    const { manifest, trustedOnFirstDownload } = await fetchModel(entry, {
      modelsDir: context.modelsDir,
      baseUrl,
      progress: context.stdout.isTTY ? barProgress(context.stdout) : lineProgress(context.stdout),
      signal: context.signal,
    });
    if (trustedOnFirstDownload) {
      context.stdout.write(
        `No checksum is published for ${entry.name}: this first download is trusted, sha256 ${manifest.sha256} (recorded in ${path.join(context.modelsDir, CHECKSUMS_FILE)}; later downloads must match it).\n`,
      );
    } else {
      context.stdout.write(
        `Verified: ${formatBytes(manifest.bytes)}, sha256 ${manifest.sha256} (${manifest.checksum === 'pinned' ? 'the published checksum' : 'as recorded at its first download'}).\n`,
      );
    }
    const onDisk = manifest.files.reduce((sum, f) => sum + f.bytes, 0);
    context.stdout.write(
      `Installed ${entry.name} in ${path.join(context.modelsDir, entry.name)} (${manifest.files.map((f) => f.path).join(', ')}; ${formatBytes(onDisk)}).\n`,
    );
    if (entry.kind === 'asr')
      context.stdout.write('The sherpa-onnx engine uses it from the next transcription (TRANSCRIBE_ENGINE=auto or sherpa-onnx); see /status.\n');
    return 0;
  } catch (error) {
    if (error instanceof ModelFetchError) return fail(error.message);
    throw error;
  }
}

async function remove(name: string, context: ModelsCliContext, fail: (message: string) => number): Promise<number> {
  if (!/^[a-z0-9][a-z0-9._-]*$/i.test(name) || !(await removeInstalledModel(context.modelsDir, name))) return fail(`${name} is not installed.`);
  context.stdout.write(`Removed ${name} from ${context.modelsDir}.\n`);
  return 0;
}

/** A progress bar for a terminal (cli-progress), redrawn in place. */
function barProgress(out: CliOutput): DownloadProgress {
  let bar: cliProgress.SingleBar | undefined;
  return {
    start(total) {
      bar?.stop();
      if (total === null) return;
      bar = new cliProgress.SingleBar(
        {
          format: '  {bar} {percentage}% | {got} of {size} | {eta_formatted} left',
          hideCursor: true,
          stream: out as NodeJS.WritableStream,
          etaBuffer: 50,
        },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total, 0, { got: formatBytes(0), size: formatBytes(total) });
    },
    update(received) {
      bar?.update(received, { got: formatBytes(received) });
    },
    stop() {
      bar?.stop();
      bar = undefined;
    },
  };
}

/** Plain lines for logs and pipes: every 10 % (or every 10 MB when the size is unknown). */
function lineProgress(out: CliOutput): DownloadProgress {
  let total: number | null = null;
  let reported = 0;
  let last = 0;
  return {
    start(size) {
      total = size;
    },
    update(received) {
      last = received;
      if (total !== null) {
        const percent = Math.floor((received / total) * 10) * 10;
        if (percent > reported) {
          reported = percent;
          out.write(`  ${percent}% (${formatBytes(received)} of ${formatBytes(total)})\n`);
        }
      } else if (received - reported >= 10_000_000) {
        reported = received;
        out.write(`  ${formatBytes(received)}\n`);
      }
    },
    stop() {
      if (total === null && last > 0 && last !== reported) out.write(`  ${formatBytes(last)}\n`);
    },
  };
}
