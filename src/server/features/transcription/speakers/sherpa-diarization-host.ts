/**
 * The speaker diarization host: a child process of the server that holds sherpa-onnx's
 * OfflineSpeakerDiarization (pyannote segmentation + speaker embeddings + clustering). Started by
 * sherpa-diarization.ts (built to dist/server/sherpa-diarization-host.js). A child because
 * sherpa ends the whole process on a model file of the wrong kind, and because process() runs to
 * the end without yielding: the server's event loop never waits on it.
 */
import { serveHost } from '#server/lib/child-host/serve-host.ts';
import {
  loadSherpaOnnx,
  pcm16ToFloat32,
  type OfflineSpeakerDiarizationConfig,
  type SherpaOfflineSpeakerDiarization,
  type SpeakerDiarizationSegment,
} from '../models/sherpa-runtime.ts';

let diarization: SherpaOfflineSpeakerDiarization;

serveHost<OfflineSpeakerDiarizationConfig, { sampleRate: number }, Uint8Array, SpeakerDiarizationSegment[]>({
  load(config) {
    diarization = new (loadSherpaOnnx().OfflineSpeakerDiarization)(config);
    return { sampleRate: diarization.sampleRate };
  },
  run(pcm) {
    return diarization.process(pcm16ToFloat32(pcm)).map(({ start, end, speaker }) => ({ start, end, speaker }));
  },
});
