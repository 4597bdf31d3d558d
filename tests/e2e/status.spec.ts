import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_CATALOG } from '#server/features/transcription/models/catalog.ts';
import { writeManifest } from '#server/features/transcription/models/model-store.ts';
import { locateSileroVad } from '#server/features/transcription/models/silero-vad.ts';
import { findFreePort } from '#tests/support/build-test-app.ts';
import { launchBrowser, uniqueEmail } from '#tests/support/browser.ts';
import { signedInPage } from '#tests/support/e2e-auth.ts';
import { spawnServer, type SpawnedServer } from '#tests/support/spawn-server.ts';

/**
 * /status on a server of its own (the built one, as `npm start` runs it), so a speech model can be
 * put in its data directory: one whose files are ONNX of the wrong kind, which ends any process
 * that loads it. The built server loads it in its sherpa-onnx host process and lives on.
 */
let browser: Browser;
let server: SpawnedServer;
let dataDir: string;
beforeAll(async () => {
  browser = await launchBrowser();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-status-'));
  server = await spawnServer({ port: await findFreePort(), dataDir });
});
afterAll(async () => {
  await browser.close();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function installModelOfTheWrongKind(): void {
  const entry = MODEL_CATALOG.find((e) => e.name === 'parakeet-tdt-110m-en')!;
  const dir = path.join(dataDir, 'models', entry.name);
  fs.mkdirSync(dir, { recursive: true });
  const onnx = fs.readFileSync(locateSileroVad().modelPath);
  const contents: Record<string, Buffer> = {
    'encoder.int8.onnx': onnx,
    'decoder.int8.onnx': onnx,
    'joiner.int8.onnx': onnx,
    'tokens.txt': Buffer.from('<blk> 0\n'),
  };
  const files = Object.entries(contents).map(([file, data]) => {
    fs.writeFileSync(path.join(dir, file), data);
    return { path: file, bytes: data.length, sha256: crypto.createHash('sha256').update(data).digest('hex') };
  });
  writeManifest(dir, {
    name: entry.name,
    kind: 'asr',
    source: 'test',
    sha256: files[0]!.sha256,
    bytes: 1,
    checksum: 'pinned',
    installedAt: new Date().toISOString(),
    files,
    asr: entry.kind === 'asr' ? entry.asr : undefined,
  });
}

describe('/status', () => {
  it('is linked from Settings › Recording and says which engine transcribes, and why sherpa-onnx does not', async () => {
    const { context, page } = await signedInPage(browser, {
      baseUrl: server.baseUrl,
      fullName: 'Grace Hopper',
      email: uniqueEmail('status'),
      password: 'compiler1',
    });
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Recording' }).click();
    await page.getByRole('tabpanel', { name: 'Recording' }).getByRole('link', { name: 'Transcription engine status' }).click();
    await page.waitForURL(/\/status$/);
    await page.getByRole('heading', { level: 1, name: 'System status' }).waitFor();

    expect(await page.getByTestId('engine-in-use').textContent()).toBe('Transcription engine: pocketsphinx (offline) — available');
    const engines = page.getByRole('list', { name: 'Engines' });
    await expect
      .poll(() => engines.getByRole('listitem').allInnerTexts())
      .toEqual([
        expect.stringContaining('sherpa-onnx: no speech model installed — run "npm run models -- fetch parakeet-tdt-110m-en"'),
        expect.stringMatching(/^pocketsphinx\s*\(offline\)\s*available\s*in use$/),
      ]);
    expect(await page.getByText('No speech models are installed.').isVisible()).toBe(true);
    // On the basic engine, the page names the command that gets better transcripts.
    expect(await page.getByTestId('better-transcripts').textContent()).toBe(
      'Transcripts use the basic offline engine. For better transcripts, run npm run models -- fetch parakeet-tdt-110m-en && npm run models -- fetch pyannote-segmentation-3.0 && npm run models -- fetch 3dspeaker-eres2net-base on the server.',
    );
    expect(await page.getByTestId('auto-models').textContent()).toBe('Recommended models at first start: off (PARLEY_AUTO_MODELS=false)');
    expect(await page.getByText('Voice activity detection: Silero VAD (bundled, no download)').isVisible()).toBe(true);
    expect(await page.getByText('0 transcriptions running, 0 waiting.', { exact: false }).isVisible()).toBe(true);

    installModelOfTheWrongKind();
    await page.reload();
    const models = page.getByRole('list', { name: 'Installed models' });
    await models.waitFor();
    expect(await models.innerText()).toContain('parakeet-tdt-110m-en — speech recognition');
    await expect
      .poll(() => page.getByRole('list', { name: 'Engines' }).getByRole('listitem').first().innerText(), { timeout: 20_000 })
      .toContain("sherpa-onnx: model parakeet-tdt-110m-en could not be loaded: 'vocab_size' does not exist in the metadata");
    expect(await page.getByTestId('engine-in-use').textContent()).toBe('Transcription engine: pocketsphinx (offline) — available');
    expect(server.process.exitCode).toBeNull();
    await context.close();
  });
});
