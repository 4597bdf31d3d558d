import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeManifest } from '#server/features/transcription/models/model-store.ts';
import { attrInt, attrInts, encodeModel, FLOAT, floats, io } from './onnx-model.ts';

/**
 * Tiny stand-ins for the speaker diarization models (pyannote segmentation, a WeSpeaker-style
 * embedding), built in the test as real ONNX files that sherpa-onnx loads and runs. The real
 * models come from the sherpa-onnx releases, which tests cannot reach; these have the same inputs,
 * outputs and metadata, and do something simple but real:
 * - segmentation: a frame is "speaker 1 alone" when its mean energy is above a threshold, else
 *   silence (an energy voice detector in the powerset-class shape pyannote gives);
 * - embedding: the mean log-mel spectrum of the stretch, centred, so voices with different
 *   spectral envelopes point different ways.
 */

const SAMPLE_RATE = 16_000;
/** Pyannote's powerset over 3 speakers with at most 2 at once: silence, 3 singles, 3 pairs. */
const CLASSES = 7;

export type SegmentationOptions = {
  /** The model's chunk in samples (pyannote's is 10 s; sherpa shifts it by a tenth). */
  windowSize?: number;
  /** Samples per output frame and their stride. */
  receptiveField?: number;
  receptiveShift?: number;
  /** Mean squared amplitude (samples in [-1, 1]) above which a frame is speech. */
  energyThreshold?: number;
};

export function segmentationModel(options: SegmentationOptions = {}): Uint8Array {
  const windowSize = options.windowSize ?? 3 * SAMPLE_RATE;
  const field = options.receptiveField ?? 1024;
  const shift = options.receptiveShift ?? 256;
  const threshold = options.energyThreshold ?? 1e-4;
  // Channel 0 (silence) scores threshold − energy, channel 1 (speaker 1) energy − threshold; the
  // other classes never win.
  const weights: number[] = [];
  for (let c = 0; c < CLASSES; c++) for (let k = 0; k < field; k++) weights.push(c === 0 ? -1 / field : c === 1 ? 1 / field : 0);
  const bias = [threshold, -threshold, -100, -100, -100, -100, -100];
  return encodeModel(
    {
      name: 'energy-segmentation',
      input: [io('x', FLOAT, ['N', 1, 'T'])],
      output: [io('y', FLOAT, ['N', 'F', CLASSES])],
      initializer: [floats('w', [CLASSES, 1, field], weights), floats('b', [CLASSES], bias)],
      node: [
        { opType: 'Mul', input: ['x', 'x'], output: ['energy'] },
        { opType: 'Conv', input: ['energy', 'w', 'b'], output: ['scores'], attribute: [attrInts('kernel_shape', [field]), attrInts('strides', [shift])] },
        { opType: 'Transpose', input: ['scores'], output: ['y'], attribute: [attrInts('perm', [0, 2, 1])] },
      ],
    },
    {
      model_type: 'pyannote-segmentation-3.0',
      sample_rate: SAMPLE_RATE,
      window_size: windowSize,
      receptive_field_size: field,
      receptive_field_shift: shift,
      num_speakers: 3,
      powerset_max_classes: 2,
      num_classes: CLASSES,
    },
  );
}

export function embeddingModel(): Uint8Array {
  const mels = 80;
  return encodeModel(
    {
      name: 'mean-spectrum-embedding',
      input: [io('feats', FLOAT, ['N', 'T', mels])],
      output: [io('embs', FLOAT, ['N', mels])],
      node: [
        { opType: 'ReduceMean', input: ['feats'], output: ['spectrum'], attribute: [attrInts('axes', [1]), attrInt('keepdims', 0)] },
        { opType: 'ReduceMean', input: ['spectrum'], output: ['level'], attribute: [attrInts('axes', [1]), attrInt('keepdims', 1)] },
        { opType: 'Sub', input: ['spectrum', 'level'], output: ['embs'] },
      ],
    },
    { framework: 'wespeaker', output_dim: mels, sample_rate: SAMPLE_RATE, normalize_samples: 1, language: 'English', comment: 'parley test model' },
  );
}

/**
 * Installs the stand-ins under modelsDir as `npm run models` would install real models (files
 * beside a manifest.json), named test-segmentation and test-embedding.
 */
export function installDiarizationTestModels(modelsDir: string, files: { segmentation?: Uint8Array; embedding?: Uint8Array } = {}): void {
  const install = (name: string, kind: 'speaker-segmentation' | 'speaker-embedding', file: string, data: Uint8Array) => {
    const dir = path.join(modelsDir, name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, file), data);
    const sha256 = crypto.createHash('sha256').update(data).digest('hex');
    const entry = { path: file, bytes: data.byteLength, sha256 };
    writeManifest(dir, {
      name,
      kind,
      source: 'test',
      sha256,
      bytes: data.byteLength,
      checksum: 'pinned',
      installedAt: new Date().toISOString(),
      files: [entry],
    });
  };
  install('test-segmentation', 'speaker-segmentation', 'model.onnx', files.segmentation ?? segmentationModel());
  install('test-embedding', 'speaker-embedding', 'embedding.onnx', files.embedding ?? embeddingModel());
}
