import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeManifest } from '#server/features/transcription/models/model-store.ts';
import { attrInt, attrInts, encodeModel, FLOAT, floats, int64s, INT64, io } from './onnx-model.ts';

/**
 * A tiny speech "model" for the sherpa-onnx engine, built in the test as real ONNX files: an
 * icefall-style offline transducer (encoder, decoder, joiner with the inputs, outputs and metadata
 * sherpa-onnx reads) that sherpa loads and runs like a real one. The real models come from the
 * sherpa-onnx releases, which tests cannot reach. What it "hears" is simple but real: in each
 * stretch of speech it says "speech" once, at the first frame whose mean log-mel energy is above a
 * threshold, and nothing else. So the engine's whole path (VAD, recogniser, timings, IPC) runs.
 */

const MELS = 80;
export const TEST_MODEL_TOKENS = '<blk> 0\n▁speech 1\n▁noise 2\n';

/** Features [N, T, 80] → every 4th frame (sherpa assumes a subsampling factor of 4), lengths (T + 3) / 4. */
function encoder(): Uint8Array {
  return encodeModel({
    name: 'subsampling-encoder',
    input: [io('x', FLOAT, ['N', 'T', MELS]), io('x_lens', INT64, ['N'])],
    output: [io('encoder_out', FLOAT, ['N', 'S', MELS]), io('encoder_out_lens', INT64, ['N'])],
    initializer: [
      int64s('starts', [1], [0]),
      int64s('ends', [1], [Number.MAX_SAFE_INTEGER]),
      int64s('axes', [1], [1]),
      int64s('steps', [1], [4]),
      int64s('three', [], [3]),
      int64s('four', [], [4]),
    ],
    node: [
      { opType: 'Slice', input: ['x', 'starts', 'ends', 'axes', 'steps'], output: ['encoder_out'] },
      { opType: 'Add', input: ['x_lens', 'three'], output: ['padded'] },
      { opType: 'Div', input: ['padded', 'four'], output: ['encoder_out_lens'] },
    ],
  });
}

/** The last token of the context → [1, 0, …] once "speech" was said, zeros before. */
function decoder(): Uint8Array {
  const table = [...Array(MELS).fill(0), 1, ...Array(MELS - 1).fill(0), 1, ...Array(MELS - 1).fill(0)];
  return encodeModel(
    {
      name: 'last-token-decoder',
      input: [io('y', INT64, ['N', 2])],
      output: [io('decoder_out', FLOAT, ['N', MELS])],
      initializer: [floats('table', [3, MELS], table), int64s('one', [1], [1]), int64s('two', [1], [2]), int64s('axis', [1], [1])],
      node: [
        { opType: 'Slice', input: ['y', 'one', 'two', 'axis'], output: ['last'] },
        { opType: 'Gather', input: ['table', 'last'], output: ['embedded'], attribute: [attrInt('axis', 0)] },
        { opType: 'Squeeze', input: ['embedded', 'axis'], output: ['decoder_out'] },
      ],
    },
    { vocab_size: 3, context_size: 2 },
  );
}

/**
 * Logits [blank, speech, noise]: blank 0; "speech" = mean log-mel − threshold while nothing was
 * said yet, hugely negative after; "noise" never wins, or, with `noiseGap`, trails "speech" by that
 * much: a close second that a hotword's bonus (contextual biasing) can put first.
 */
function joiner(threshold: number, noiseGap: number | undefined): Uint8Array {
  return encodeModel({
    name: 'energy-joiner',
    input: [io('encoder_out', FLOAT, ['N', MELS]), io('decoder_out', FLOAT, ['N', MELS])],
    output: [io('logit', FLOAT, ['N', 3])],
    initializer: [
      floats('threshold', [], [threshold]),
      floats('penalty', [], [1000]),
      floats('zero', [], [0]),
      floats('minus', [], [-1000]),
      floats('gap', [], [noiseGap ?? 0]),
      int64s('first', [1], [0]),
      int64s('second', [1], [1]),
      int64s('axis', [1], [1]),
    ],
    node: [
      { opType: 'ReduceMean', input: ['encoder_out'], output: ['energy'], attribute: [attrInts('axes', [1]), attrInt('keepdims', 1)] },
      { opType: 'Sub', input: ['energy', 'threshold'], output: ['loudness'] },
      { opType: 'Slice', input: ['decoder_out', 'first', 'second', 'axis'], output: ['said'] },
      { opType: 'Mul', input: ['said', 'penalty'], output: ['silenced'] },
      { opType: 'Sub', input: ['loudness', 'silenced'], output: ['speech'] },
      { opType: 'Mul', input: ['energy', 'zero'], output: ['blank'] },
      noiseGap === undefined ? { opType: 'Add', input: ['blank', 'minus'], output: ['noise'] } : { opType: 'Sub', input: ['speech', 'gap'], output: ['noise'] },
      { opType: 'Concat', input: ['blank', 'speech', 'noise'], output: ['logit'], attribute: [attrInt('axis', 1)] },
    ],
  });
}

export type TestAsrModelOptions = { name?: string; threshold?: number; noiseGap?: number; installedAt?: string };

/**
 * Installs the test model under `modelsDir/<name>` as `npm run models -- fetch` would leave a
 * catalog transducer model (its files, sizes and hashes in manifest.json), and returns its folder.
 */
export function installTestAsrModel(modelsDir: string, options: TestAsrModelOptions = {}): string {
  const name = options.name ?? 'zipformer-en-2023-06-26';
  const dir = path.join(modelsDir, name);
  fs.mkdirSync(dir, { recursive: true });
  const contents: Record<string, Uint8Array | string> = {
    'encoder.onnx': encoder(),
    'decoder.onnx': decoder(),
    'joiner.onnx': joiner(options.threshold ?? -6, options.noiseGap),
    'tokens.txt': TEST_MODEL_TOKENS,
  };
  const files = Object.entries(contents).map(([file, data]) => {
    fs.writeFileSync(path.join(dir, file), data);
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    return { path: file, bytes: bytes.length, sha256: crypto.createHash('sha256').update(bytes).digest('hex') };
  });
  writeManifest(dir, {
    name,
    kind: 'asr',
    source: 'parley test model',
    sha256: files[0]!.sha256,
    bytes: files[0]!.bytes,
    checksum: 'first-download',
    installedAt: options.installedAt ?? new Date().toISOString(),
    files,
    asr: { type: 'transducer', encoder: 'encoder.onnx', decoder: 'decoder.onnx', joiner: 'joiner.onnx', tokens: 'tokens.txt' },
  });
  return dir;
}
