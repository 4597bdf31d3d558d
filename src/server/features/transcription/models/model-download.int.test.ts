import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findFreePort } from '#tests/support/build-test-app.ts';
import { runScript } from '#tests/support/run-script.ts';
import { MODEL_CATALOG, type CatalogEntry } from './catalog.ts';
import { fetchModel, ModelFetchError } from './model-download.ts';
import { runModelsCommand } from './models-cli.ts';
import { readInstalledModel, readRecordedChecksums } from './model-store.ts';
import { decodeToPcm16k } from '#server/lib/ffmpeg.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { loadSileroVad, locateSileroVad } from './silero-vad.ts';

/**
 * `npm run models` against a real HTTP server on loopback serving real archives built here with
 * Debian's tar and bzip2: a tar.bz2 holding the real Silero VAD onnx file (from the npm package),
 * a tokens file and a README the installer must leave out.
 */
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-models-test-'));
const bundledVad = locateSileroVad().modelPath;
const files = new Map<string, Buffer>();
const hits: string[] = [];
let server: http.Server;
const stalled: http.ServerResponse[] = [];
let baseUrl: string;

function buildArchive(name: string, members: Record<string, Buffer | string>): Buffer {
  const dir = fs.mkdtempSync(path.join(work, 'src-'));
  fs.mkdirSync(path.join(dir, name));
  for (const [file, content] of Object.entries(members)) fs.writeFileSync(path.join(dir, name, file), content);
  const archive = path.join(dir, `${name}.tar.bz2`);
  const result = spawnSync('tar', ['-cjf', archive, '-C', dir, name]);
  if (result.status !== 0) throw new Error(`tar failed: ${result.stderr.toString()}`);
  return fs.readFileSync(archive);
}

const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

const vadArchive = buildArchive('sherpa-onnx-test-vad', {
  'silero_vad.onnx': fs.readFileSync(bundledVad),
  'tokens.txt': '<blk> 0\n',
  'README.md': 'not wanted',
});
// 8 KiB that bzip2 cannot shrink: the two archives' sizes then always differ (without it they came
// within a few hundred bytes of each other, by the file times in their tar headers, and once matched).
const otherArchive = buildArchive('sherpa-onnx-test-vad', {
  'silero_vad.onnx': fs.readFileSync(bundledVad),
  'tokens.txt': '<blk> 0\n<unk> 1\n',
  'extra.bin': crypto.randomBytes(8192),
});
const incompleteArchive = buildArchive('sherpa-onnx-test-vad', { 'silero_vad.onnx': fs.readFileSync(bundledVad) });

/** The real catalog's silero-vad entry, served here as an archive (the installer path the big models take). */
const vadEntry = (overrides: Partial<CatalogEntry> = {}): CatalogEntry =>
  ({
    ...MODEL_CATALOG.find((e) => e.name === 'silero-vad')!,
    path: 'asr-models/test-vad.tar.bz2',
    format: 'tar.bz2',
    files: ['silero_vad.onnx', 'tokens.txt'],
    bytes: vadArchive.length,
    sha256: sha256(vadArchive),
    ...overrides,
  }) as CatalogEntry;

let modelsDir: string;
const output = () => {
  const lines: string[] = [];
  return { lines, stream: { write: (text: string) => lines.push(text), isTTY: false }, text: () => lines.join('') };
};

async function run(args: string[], catalog: CatalogEntry[], url = baseUrl) {
  const stdout = output();
  const stderr = output();
  const code = await runModelsCommand(args, { catalog, modelsDir, baseUrl: url, stdout: stdout.stream, stderr: stderr.stream });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** Nothing but whole models in the models folder: no staging folder or stray download survives. */
const leftovers = () => fs.readdirSync(modelsDir).filter((name) => name.startsWith('.'));

beforeAll(async () => {
  server = http.createServer((request, response) => {
    hits.push(request.url ?? '');
    if (request.url === '/asr-models/stalls.tar.bz2') {
      // Sends a first piece, then nothing more: a connection that hangs.
      response.writeHead(200, { 'content-length': vadArchive.length });
      response.write(vadArchive.subarray(0, 4096));
      stalled.push(response);
      return;
    }
    const body = files.get(request.url ?? '');
    if (!body) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
    // In pieces, as a real download arrives, so progress has something to report.
    const step = Math.ceil(body.length / 20);
    let offset = 0;
    const next = () => {
      if (offset >= body.length) return void response.end();
      response.write(body.subarray(offset, offset + step), next);
      offset += step;
    };
    next();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const response of stalled) response.destroy();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(work, { recursive: true, force: true });
});
beforeEach(() => {
  modelsDir = fs.mkdtempSync(path.join(work, 'models-'));
  files.clear();
  hits.length = 0;
});

describe('npm run models -- fetch', () => {
  it('downloads with progress, verifies the published checksum, keeps only the model files and writes a manifest', async () => {
    files.set('/asr-models/test-vad.tar.bz2', vadArchive);
    const result = await run(['fetch', 'silero-vad'], [vadEntry()]);

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Fetching silero-vad`);
    expect(result.stdout.match(/^ {2}\d+% \(\d/gm)!.length).toBeGreaterThanOrEqual(5);
    expect(result.stdout).toMatch(/^ {2}100% \(1\.2 MB of 1\.2 MB\)$/m);
    expect(result.stdout).toContain(`Verified: `);
    expect(result.stdout).toContain(`sha256 ${sha256(vadArchive)} (the published checksum)`);
    expect(result.stdout).toContain(`Installed silero-vad in ${path.join(modelsDir, 'silero-vad')}`);

    const installed = readInstalledModel(modelsDir, 'silero-vad')!;
    expect(installed.manifest).toMatchObject({ name: 'silero-vad', kind: 'vad', checksum: 'pinned', sha256: sha256(vadArchive), bytes: vadArchive.length });
    expect(fs.readdirSync(installed.dir).sort()).toEqual(['manifest.json', 'silero_vad.onnx', 'tokens.txt']);
    expect(installed.manifest.files.find((f) => f.path === 'silero_vad.onnx')!.sha256).toBe(sha256(fs.readFileSync(bundledVad)));
    expect(leftovers()).toEqual([]);

    const again = await run(['fetch', 'silero-vad'], [vadEntry()]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('silero-vad is already installed');
    expect(hits).toHaveLength(1);
  });

  it('draws a progress bar on a terminal', async () => {
    files.set('/asr-models/test-vad.tar.bz2', vadArchive);
    const written: string[] = [];
    const tty = { isTTY: true, write: (text: string) => written.push(text) };
    const code = await runModelsCommand(['fetch', 'silero-vad'], { catalog: [vadEntry()], modelsDir, baseUrl, stdout: tty, stderr: tty });
    expect(code).toBe(0);
    const screen = written.join('');
    expect(screen).toContain('100%');
    expect(screen).toMatch(/[█░]{10,}/);
  });

  it('refuses a download whose checksum does not match, and leaves nothing behind', async () => {
    files.set('/asr-models/test-vad.tar.bz2', vadArchive);
    const result = await run(['fetch', 'silero-vad'], [vadEntry({ sha256: 'a'.repeat(64) })]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `Error: silero-vad: checksum mismatch (sha256 ${sha256(vadArchive)}, expected ${'a'.repeat(64)}, as published); the download was discarded.\n`,
    );
    expect(fs.readdirSync(modelsDir)).toEqual([]);
  });

  it('refuses a download of the wrong size before unpacking it', async () => {
    files.set('/asr-models/test-vad.tar.bz2', vadArchive);
    const result = await run(['fetch', 'silero-vad'], [vadEntry({ bytes: vadArchive.length + 10 })]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`the server offers ${vadArchive.length} bytes, expected ${vadArchive.length + 10} (as published)`);
    expect(fs.readdirSync(modelsDir)).toEqual([]);
  });

  it('trusts the first download of a model without a published checksum, records it, and holds later downloads to it', async () => {
    files.set('/asr-models/test-vad.tar.bz2', vadArchive);
    const unpinned = vadEntry({ sha256: null, bytes: null });
    const first = await run(['fetch', 'silero-vad'], [unpinned]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`No checksum is published for silero-vad: this first download is trusted, sha256 ${sha256(vadArchive)}`);
    expect(readRecordedChecksums(modelsDir)['silero-vad']).toMatchObject({ sha256: sha256(vadArchive), bytes: vadArchive.length });
    expect(readInstalledModel(modelsDir, 'silero-vad')!.manifest.checksum).toBe('first-download');

    expect((await run(['remove', 'silero-vad'], [unpinned])).code).toBe(0);
    files.set('/asr-models/test-vad.tar.bz2', otherArchive);
    const second = await run(['fetch', 'silero-vad'], [unpinned]);
    expect(second.code).toBe(1);
    // The other archive differs in size as well as content: refused at the size check, before its hash.
    expect(second.stderr).toMatch(
      /^Error: silero-vad: the server offers \d+ bytes, expected \d+ \(as recorded at its first download\); nothing was installed\.\n$/,
    );

    // Same size, one byte changed: refused by its hash.
    const tampered = Buffer.from(vadArchive);
    tampered[tampered.length >> 1]! ^= 0xff;
    files.set('/asr-models/test-vad.tar.bz2', tampered);
    const third = await run(['fetch', 'silero-vad'], [unpinned]);
    expect(third.code).toBe(1);
    expect(third.stderr).toBe(
      `Error: silero-vad: checksum mismatch (sha256 ${sha256(tampered)}, expected ${sha256(vadArchive)}, as recorded at its first download); the download was discarded.\n`,
    );
    expect(readInstalledModel(modelsDir, 'silero-vad')).toBeUndefined();
    expect(leftovers()).toEqual([]);
  });

  it('installs a VAD that sherpa-onnx loads from the installed files and that tells speech from silence in a real clip', async () => {
    files.set('/asr-models/test-vad.tar.bz2', vadArchive);
    expect((await run(['fetch', 'silero-vad'], [vadEntry()])).code).toBe(0);
    const vad = loadSileroVad({ modelsDir });
    expect(vad.origin).toBe('installed');
    expect(vad.modelPath).toBe(path.join(modelsDir, 'silero-vad', 'silero_vad.onnx'));
    // goforward.wav: "go forward ten meters", spoken from about 0.5 s to 2.2 s of its 2.8 s.
    const pcm = await decodeToPcm16k(path.join(sharedAudioDir(), 'goforward.wav'));
    const spans = await vad.detectSpeech(pcm);
    expect(spans).toHaveLength(1);
    expect(spans[0]!.startMs).toBeGreaterThan(300);
    expect(spans[0]!.startMs).toBeLessThan(700);
    expect(spans[0]!.endMs).toBeGreaterThan(2000);
    expect(spans[0]!.endMs).toBeLessThan(2600);
    expect(await vad.detectSpeech(Buffer.alloc(16_000 * 2 * 3))).toEqual([]);
  });

  it('says when the archive lacks a file the engine needs', async () => {
    files.set('/asr-models/test-vad.tar.bz2', incompleteArchive);
    const result = await run(['fetch', 'silero-vad'], [vadEntry({ sha256: sha256(incompleteArchive), bytes: incompleteArchive.length })]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('Error: The archive does not hold tokens.txt; nothing was installed.\n');
    expect(fs.readdirSync(modelsDir)).toEqual([]);
  });

  it('installs a single .onnx file (the speaker models)', async () => {
    const onnx = fs.readFileSync(bundledVad);
    files.set('/speaker-recongition-models/test.onnx', onnx);
    const entry = {
      ...MODEL_CATALOG.find((e) => e.name === 'titanet-small-en')!,
      path: 'speaker-recongition-models/test.onnx',
      bytes: onnx.length,
      sha256: sha256(onnx),
    } as CatalogEntry;
    const result = await run(['fetch', 'titanet-small-en'], [entry]);
    expect(result.code).toBe(0);
    const installed = readInstalledModel(modelsDir, 'titanet-small-en')!;
    expect(installed.manifest.files).toEqual([{ path: 'nemo_en_titanet_small.onnx', bytes: onnx.length, sha256: sha256(onnx) }]);
  });

  it('gives up a download that stalls, and one that is cancelled (Ctrl-C), leaving nothing behind', async () => {
    const entry = vadEntry({ path: 'asr-models/stalls.tar.bz2' });
    await expect(fetchModel(entry, { modelsDir, baseUrl, stallTimeoutMs: 300 })).rejects.toThrow(
      new ModelFetchError('The download from ' + new URL(baseUrl).host + ' stalled for 300 ms; nothing was installed.'),
    );
    expect(fs.readdirSync(modelsDir)).toEqual([]);

    const abort = new AbortController();
    const cancelled = fetchModel(entry, { modelsDir, baseUrl, signal: abort.signal, progress: { start() {}, update: () => abort.abort(), stop() {} } });
    await expect(cancelled).rejects.toThrow(new ModelFetchError('Download cancelled.'));
    expect(fs.readdirSync(modelsDir)).toEqual([]);
  });

  it('explains a 404 and a refused connection in one line', async () => {
    const missing = await run(['fetch', 'silero-vad'], [vadEntry()]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      `Error: ${baseUrl}/asr-models/test-vad.tar.bz2 answered 404 Not Found: no such model file there (check PARLEY_MODELS_BASE_URL).\n`,
    );

    const port = await findFreePort();
    const refused = await run(['fetch', 'silero-vad'], [vadEntry()], `http://127.0.0.1:${port}`);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`Error: Could not reach 127.0.0.1:${port}: connection refused. Check the network (or PARLEY_MODELS_BASE_URL) and try again.\n`);
    expect(fs.readdirSync(modelsDir)).toEqual([]);
  });
});

describe('npm run models (the script)', () => {
  const models = (args: string[], env: Record<string, string>) => runScript(path.resolve('scripts/models.ts'), args, env);

  it('uses PARLEY_MODELS_BASE_URL and DATA_DIR, exits non-zero with the reason, and lists what is installed', async () => {
    const dataDir = fs.mkdtempSync(path.join(work, 'data-'));
    const env = { DATA_DIR: dataDir, PARLEY_MODELS_BASE_URL: `${baseUrl}/mirror` };
    const fetched = await models(['fetch', 'parakeet-tdt-110m-en'], env);
    expect(fetched.code).toBe(1);
    expect(fetched.stdout).toContain(`from ${baseUrl}/mirror/asr-models/sherpa-onnx-nemo-parakeet_tdt_transducer_110m-en-36000-int8.tar.bz2`);
    expect(fetched.stderr).toContain('answered 404 Not Found');
    expect(hits).toContain('/mirror/asr-models/sherpa-onnx-nemo-parakeet_tdt_transducer_110m-en-36000-int8.tar.bz2');

    const unknown = await models(['fetch', 'no-such-model'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('Error: there is no model called "no-such-model". Run "npm run models -- list" for the names.\n');

    const listed = await models(['list'], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^parakeet-tdt-110m-en +asr +103 MB +- +published/m);
    expect(listed.stdout).toContain(`Models go to ${path.join(dataDir, 'models')}`);
  });
});
