import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { modelUrl, type CatalogEntry } from './catalog.ts';
import { expectedChecksum, modelDir, PARTIAL_PREFIX, recordChecksum, writeManifest, type ModelManifest } from './model-store.ts';

/** Pieces read ahead of the disk, at most: a slow disk slows the download rather than filling memory. */
const MAX_UNWRITTEN_BYTES = 8 * 1024 * 1024;

/** A fetch that failed: the message is one line meant for the person at the terminal. */
export class ModelFetchError extends Error {}

/**
 * A download that broke off, stalled or was cancelled: the bytes received so far are sound, so a
 * resumable fetch keeps them and asks only for the rest next time.
 */
class DownloadInterrupted extends ModelFetchError {}

export type DownloadProgress = {
  /** Called once the response has arrived; total is null when neither server nor catalog knows the size. */
  start(total: number | null): void;
  update(received: number): void;
  /** Called when the download ended, well or not. */
  stop(): void;
};

export type FetchModelOptions = {
  modelsDir: string;
  baseUrl: string;
  progress?: DownloadProgress;
  signal?: AbortSignal;
  /** A download that delivers no byte for this long is given up (default 60 s). */
  stallTimeoutMs?: number;
  /**
   * Keep what a broken-off download received (in modelsDir, `.partial-<name>.download`) and go on
   * from there with an HTTP Range request next time; the whole file is still checked against the
   * size and SHA-256 before anything is unpacked. The background download at first start uses it.
   */
  resume?: boolean;
};

export type FetchModelResult = {
  manifest: ModelManifest;
  /** True when no checksum was published or recorded before: this download's was recorded now. */
  trustedOnFirstDownload: boolean;
};

/**
 * Downloads one catalog model into a staging folder next to its final place, checks size and
 * SHA-256 before anything is unpacked, unpacks (Debian's tar and bzip2), keeps only the files the
 * engine loads, writes the manifest, and renames the folder into place. Whatever fails, the
 * staging folder is removed: a model is either wholly installed or not at all.
 */
export async function fetchModel(entry: CatalogEntry, options: FetchModelOptions): Promise<FetchModelResult> {
  const { modelsDir } = options;
  const url = modelUrl(options.baseUrl, entry);
  await mkdirOrExplain(modelsDir);
  const staging = await fs.promises.mkdtemp(path.join(modelsDir, `${PARTIAL_PREFIX}${entry.name}-`)).catch((error: unknown) => {
    throw diskError(error, modelsDir);
  });
  // A resumable download lives beside the staging folder, which goes whatever happens.
  const download = options.resume ? resumableDownloadPath(modelsDir, entry.name) : path.join(staging, 'download');
  let keepDownload = false;
  try {
    const expected = expectedChecksum(modelsDir, entry);
    const { sha256, bytes } = await downloadVerified(url, download, entry, expected, options).catch((error: unknown) => {
      keepDownload = error instanceof DownloadInterrupted;
      throw error;
    });

    const unpacked = path.join(staging, 'model');
    await fs.promises.mkdir(unpacked);
    if (entry.format === 'tar.bz2') await extractFiles(download, staging, unpacked, entry.files);
    else await fs.promises.rename(download, path.join(unpacked, entry.files[0]));

    const files = [];
    for (const file of entry.files) {
      const full = path.join(unpacked, file);
      files.push({ path: file, bytes: (await fs.promises.stat(full)).size, sha256: await sha256Of(full) });
    }
    const manifest: ModelManifest = {
      name: entry.name,
      kind: entry.kind,
      source: url,
      sha256,
      bytes,
      checksum: expected?.source ?? 'first-download',
      installedAt: new Date().toISOString(),
      files,
      ...(entry.kind === 'asr' ? { asr: entry.asr } : {}),
    };
    writeManifest(unpacked, manifest);
    await moveIntoPlace(unpacked, modelDir(modelsDir, entry.name), staging);
    if (!expected) recordChecksum(modelsDir, entry.name, { sha256, bytes });
    return { manifest, trustedOnFirstDownload: !expected };
  } catch (error) {
    throw error instanceof ModelFetchError ? error : new ModelFetchError(describeFailure(error, modelsDir));
  } finally {
    await fs.promises.rm(staging, { recursive: true, force: true });
    if (options.resume && !keepDownload) await fs.promises.rm(download, { force: true });
  }
}

/** Where a resumable download of `name` keeps its bytes between attempts (not a model: a dot name). */
export const resumableDownloadPath = (modelsDir: string, name: string): string => path.join(modelsDir, `${PARTIAL_PREFIX}${name}.download`);

/** The SHA-256 state of a file's bytes, to go on hashing what a resumed download appends. */
async function hashOf(file: string): Promise<crypto.Hash> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash;
}

async function downloadVerified(
  url: string,
  target: string,
  entry: CatalogEntry,
  expected: { sha256: string; bytes: number | null; source: 'pinned' | 'first-download' } | undefined,
  options: FetchModelOptions,
): Promise<{ sha256: string; bytes: number }> {
  const stall = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stall.signal]) : stall.signal;
  const stallMs = options.stallTimeoutMs ?? 60_000;
  let stallTimer = setTimeout(() => stall.abort(), stallMs);
  const touch = () => {
    clearTimeout(stallTimer);
    stallTimer = setTimeout(() => stall.abort(), stallMs);
  };
  const host = new URL(url).host;
  options.progress?.start(null);
  // What an earlier attempt kept (resume only); more than the whole file is not worth asking after.
  let kept = options.resume ? ((await fs.promises.stat(target).catch(() => undefined))?.size ?? 0) : 0; // nothing kept: from the start
  if (expected?.bytes != null && kept >= expected.bytes) kept = 0;
  try {
    let response: Response;
    try {
      response = await fetch(url, { signal, redirect: 'follow', headers: kept > 0 ? { range: `bytes=${kept}-` } : {} });
    } catch (error) {
      if (options.signal?.aborted) throw new ModelFetchError('Download cancelled.');
      if (stall.signal.aborted) throw new ModelFetchError(`${host} did not answer within ${seconds(stallMs)}.`);
      throw new ModelFetchError(`Could not reach ${host}: ${networkReason(error)}. Check the network (or PARLEY_MODELS_BASE_URL) and try again.`);
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel().catch(() => undefined); // the refusal below is the error that matters
      if (response.status === 404) throw new ModelFetchError(`${url} answered 404 Not Found: no such model file there (check PARLEY_MODELS_BASE_URL).`);
      throw new ModelFetchError(`${url} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}. Try again later.`);
    }
    // 206 with the range asked for: go on after the kept bytes; anything else (200): from the start.
    const contentRange = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(response.headers.get('content-range') ?? '');
    const offset = response.status === 206 && contentRange && Number(contentRange[1]) === kept ? kept : 0;
    if (response.status === 206 && offset === 0) {
      await response.body.cancel().catch(() => undefined); // the refusal below is the error that matters
      throw new ModelFetchError(`${url} answered a part of the file that was not asked for; try again.`);
    }
    const rest = Number(response.headers.get('content-length'));
    const announced = Number.isFinite(rest) && rest > 0 ? offset + rest : NaN;
    const total = expected?.bytes ?? (Number.isFinite(announced) && announced > 0 ? announced : null);
    if (expected?.bytes != null && Number.isFinite(announced) && announced > 0 && announced !== expected.bytes) {
      await response.body.cancel().catch(() => undefined); // the refusal below is the error that matters
      throw new ModelFetchError(
        `${entry.name}: the server offers ${announced} bytes, expected ${expected.bytes} (${originOf(expected.source)}); nothing was installed.`,
      );
    }
    options.progress?.start(total);

    const hash = offset > 0 ? await hashOf(target) : crypto.createHash('sha256');
    let received = offset;
    // A fresh download never writes over a file (wx); a resumed one appends, a restarted one starts it again.
    const file = await fs.promises.open(target, offset > 0 ? 'a' : options.resume ? 'w' : 'wx', 0o644).catch(async (error: unknown) => {
      await response.body?.cancel().catch(() => undefined); // the refusal below is the error that matters
      throw diskError(error, path.dirname(target));
    });
    // Reading never waits for the disk (unless MAX_UNWRITTEN_BYTES wait for it): a read is pending
    // when the connection breaks off, so every piece that arrived is taken, and written before the
    // error is reported. The file then holds all that arrived, and a resumed download asks for
    // exactly the rest. (A stream pipeline drops the pieces still queued for the file.)
    let written: Promise<unknown> = Promise.resolve();
    let unwritten = 0;
    const reader = response.body.getReader();
    try {
      options.progress?.update(received);
      for (;;) {
        const { done, value: chunk } = await reader.read();
        if (done) break;
        touch();
        received += chunk.length;
        if (expected?.bytes != null && received > expected.bytes) {
          throw new ModelFetchError(
            `${entry.name}: the download is larger than the expected ${expected.bytes} bytes (${originOf(expected.source)}); nothing was installed.`,
          );
        }
        hash.update(chunk);
        unwritten += chunk.length;
        written = written.then(async () => {
          await file.write(chunk);
          unwritten -= chunk.length;
        });
        // A disk that fails ends the download at once: the read then finishes, and `await written` says why.
        written.catch(() => void reader.cancel().catch(() => undefined));
        if (unwritten > MAX_UNWRITTEN_BYTES) await written;
        options.progress?.update(received);
      }
      await written;
    } catch (error) {
      if (error instanceof ModelFetchError) throw error;
      if (options.signal?.aborted) throw new DownloadInterrupted('Download cancelled.');
      if (stall.signal.aborted) throw new DownloadInterrupted(`The download from ${host} stalled for ${seconds(stallMs)}; nothing was installed.`);
      if (isDiskError(error)) throw diskError(error, path.dirname(target));
      throw new DownloadInterrupted(`The download from ${host} broke off after ${formatBytes(received)}: ${networkReason(error)}; nothing was installed.`);
    } finally {
      await reader.cancel().catch(() => undefined); // a refused download stops here (a finished one is already closed)
      await written.catch(() => undefined); // what arrived is on disk before the error is told
      await file.close();
    }

    const sha256 = hash.digest('hex');
    if (total !== null && received !== total) throw new ModelFetchError(`${entry.name}: received ${received} of ${total} bytes; nothing was installed.`);
    if (expected && sha256 !== expected.sha256) {
      throw new ModelFetchError(
        `${entry.name}: checksum mismatch (sha256 ${sha256}, expected ${expected.sha256}, ${originOf(expected.source)}); the download was discarded.`,
      );
    }
    return { sha256, bytes: received };
  } finally {
    clearTimeout(stallTimer);
    options.progress?.stop();
  }
}

/**
 * Unpacks only the wanted files (`--no-anchored` matches them under the archive's top folder),
 * then moves each, if it is a regular file, to `target` by its plain name. GNU tar refuses
 * absolute and `..` member names, and nothing else of the archive survives the staging folder.
 */
async function extractFiles(archive: string, staging: string, target: string, files: string[]): Promise<void> {
  const unpackDir = path.join(staging, 'unpack');
  await fs.promises.mkdir(unpackDir);
  const args = ['-xjf', archive, '-C', unpackDir, '--no-same-owner', '--no-same-permissions', '--wildcards', '--no-anchored', ...files];
  const { code, stderr } = await run('tar', args);
  if (code !== 0) {
    if (code === 127 || /bzip2: (command )?not found|Cannot exec/i.test(stderr)) {
      throw new ModelFetchError('Unpacking needs tar and bzip2: install them with "apt-get install -y tar bzip2".');
    }
    const missing = files.filter((f) => stderr.includes(f) && /Not found in archive/.test(stderr));
    if (missing.length > 0) throw new ModelFetchError(`The archive does not hold ${missing.join(', ')}; nothing was installed.`);
    if (/No space left/i.test(stderr)) throw new ModelFetchError(`Not enough disk space to unpack the model in ${staging}.`);
    throw new ModelFetchError(`The archive could not be unpacked (${lastLine(stderr) || `tar exited with ${code}`}); nothing was installed.`);
  }
  for (const file of files) {
    const found = await findFile(unpackDir, file, 3);
    if (!found) throw new ModelFetchError(`The archive does not hold ${file}; nothing was installed.`);
    await fs.promises.rename(found, path.join(target, file));
  }
}

/** The shallowest regular file named `name` (symlinks and devices are never taken). */
async function findFile(dir: string, name: string, depth: number): Promise<string | undefined> {
  const entries = await fs.promises.readdir(dir, { withFileTypes: true });
  const direct = entries.find((e) => e.name === name && e.isFile());
  if (direct) return path.join(dir, direct.name);
  if (depth <= 0) return undefined;
  for (const sub of entries.filter((e) => e.isDirectory())) {
    const found = await findFile(path.join(dir, sub.name), name, depth - 1);
    if (found) return found;
  }
  return undefined;
}

/** Swaps the new folder in; an older install of the same model is renamed aside, then deleted. */
async function moveIntoPlace(from: string, to: string, staging: string): Promise<void> {
  if (fs.existsSync(to)) {
    await fs.promises.rename(to, path.join(staging, 'replaced'));
  }
  await fs.promises.rename(from, to);
}

export async function sha256Of(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function run(command: string, args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    child.on('error', (error: NodeJS.ErrnoException) => resolve({ code: error.code === 'ENOENT' ? 127 : 1, stderr: error.message }));
    child.on('close', (code) => resolve({ code: code ?? 1, stderr }));
  });
}

async function mkdirOrExplain(dir: string): Promise<void> {
  try {
    await fs.promises.mkdir(dir, { recursive: true });
  } catch (error) {
    throw diskError(error, dir);
  }
}

const isDiskError = (error: unknown): error is NodeJS.ErrnoException =>
  typeof error === 'object' &&
  error !== null &&
  'code' in error &&
  ['ENOSPC', 'EDQUOT', 'EACCES', 'EPERM', 'EROFS'].includes(String((error as NodeJS.ErrnoException).code));

function diskError(error: unknown, dir: string): ModelFetchError {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as NodeJS.ErrnoException).code) : '';
  if (code === 'ENOSPC' || code === 'EDQUOT') return new ModelFetchError(`Not enough disk space in ${dir}; nothing was installed.`);
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
    return new ModelFetchError(`Cannot write to ${dir} (${code}); check DATA_DIR and its permissions.`);
  return new ModelFetchError(`Could not write the model in ${dir}: ${error instanceof Error ? error.message : String(error)}`);
}

function describeFailure(error: unknown, modelsDir: string): string {
  if (isDiskError(error)) return diskError(error, modelsDir).message;
  return `The model could not be installed: ${error instanceof Error ? error.message : String(error)}`;
}

/** undici wraps the socket error in `cause`: ECONNREFUSED, ENOTFOUND, ECONNRESET, certificate errors… */
function networkReason(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String((cause as { code: unknown }).code) : '';
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'name lookup failed',
    ECONNRESET: 'connection reset',
    ETIMEDOUT: 'connection timed out',
    UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
    UND_ERR_SOCKET: 'connection lost',
  };
  if (known[code]) return known[code];
  return cause instanceof Error ? cause.message : String(cause);
}

const seconds = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`);

const originOf = (source: 'pinned' | 'first-download') => (source === 'pinned' ? 'as published' : 'as recorded at its first download');

const lastLine = (text: string) => text.trim().split('\n').pop()?.trim() ?? '';

export function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000_000) return `${(bytes / 1_000_000_000).toFixed(2)} GB`;
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  if (bytes >= 1_000) return `${(bytes / 1_000).toFixed(0)} kB`;
  return `${bytes} B`;
}
