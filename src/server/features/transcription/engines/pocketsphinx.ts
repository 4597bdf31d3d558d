import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Pcm16k } from '#server/lib/ffmpeg.ts';
import type { EngineAvailability, RecognizedSegment, TranscribeOptions, TranscriptionEngine } from './engine.ts';
import { parsePocketsphinxOutput } from './pocketsphinx-output.ts';

export const POCKETSPHINX_BINARY = '/usr/bin/pocketsphinx_continuous';
/** Installed by Debian's pocketsphinx-en-us; the binary finds it by default. */
export const POCKETSPHINX_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us/en-us';

type PocketsphinxOptions = { binary?: string; modelDir?: string };

/**
 * Debian's offline recogniser: always available once `pocketsphinx` and `pocketsphinx-en-us` are
 * installed. Raw PCM goes in on stdin, one line per utterance comes out, with word timings.
 *
 * It takes no custom vocabulary: its n-gram search only ever hears words of its language model
 * (en-us.lm.bin, binary, with no way to add or weight unigrams per run), so a name added to the
 * dictionary alone is never recognised, and `-lw` weighs the whole model, not chosen words. Its
 * transcripts get the vocabulary through the corrections pass after recognition.
 */
export function createPocketsphinxEngine(options: PocketsphinxOptions = {}): TranscriptionEngine {
  const binary = options.binary ?? POCKETSPHINX_BINARY;
  const modelDir = options.modelDir ?? POCKETSPHINX_MODEL_DIR;
  return {
    name: 'pocketsphinx',
    async checkAvailability(): Promise<EngineAvailability> {
      if (!fs.existsSync(binary)) return { available: false, reason: `${binary} is missing: install Debian's pocketsphinx package` };
      if (!fs.existsSync(modelDir)) return { available: false, reason: `${modelDir} is missing: install Debian's pocketsphinx-en-us package` };
      return { available: true };
    },
    transcribe: (pcm, transcribeOptions) => runPocketsphinx(binary, modelDir, pcm, transcribeOptions),
  };
}

/**
 * Node gives a child's stdin as a socket, which pocketsphinx cannot open as `/dev/stdin`, so the
 * PCM goes through a private temporary file that is removed afterwards.
 */
async function runPocketsphinx(binary: string, modelDir: string, pcm: Pcm16k, options: TranscribeOptions = {}): Promise<RecognizedSegment[]> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'parley-ps-'));
  const input = path.join(dir, `${crypto.randomUUID()}.raw`);
  try {
    await fs.promises.writeFile(input, pcm, { mode: 0o600 });
    const totalSeconds = pcm.length / 2 / 16_000;
    const onOutput = options.onProgress && progressReporter(totalSeconds, options.onProgress);
    const output = await runBinary(binary, ['-hmm', modelDir, '-infile', input, '-time', 'yes', '-logfn', '/dev/null'], options.signal, onOutput);
    return parsePocketsphinxOutput(output);
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/** Progress from the output as it streams: the end time of the newest word line, over the audio's length. */
function progressReporter(totalSeconds: number, report: (fraction: number) => void): (chunk: string) => void {
  let last = 0;
  return (chunk) => {
    for (const match of chunk.matchAll(/^\S+ \d+(?:\.\d+)? (\d+(?:\.\d+)?) \d+(?:\.\d+)?$/gm)) {
      const fraction = Math.min(1, Number(match[1]) / Math.max(totalSeconds, 0.001));
      if (fraction > last + 0.01) {
        last = fraction;
        report(fraction);
      }
    }
  };
}

function runBinary(binary: string, args: string[], signal: AbortSignal | undefined, onOutput?: (chunk: string) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], signal });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      onOutput?.(chunk);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`pocketsphinx exited with ${code}: ${stderr.trim().split('\n').pop() ?? ''}`));
    });
  });
}
