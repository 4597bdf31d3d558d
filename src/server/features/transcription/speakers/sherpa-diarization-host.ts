/**
 * The speaker diarization host: a child process of the server that holds sherpa-onnx's
 * OfflineSpeakerDiarization (pyannote segmentation + speaker embeddings + clustering). Started by
 * sherpa-diarization.ts (built to dist/server/sherpa-diarization-host.js). A child because
 * sherpa ends the whole process on a model file of the wrong kind, and because process() runs to
 * the end without yielding: the server's event loop never waits on it.
 */
import { loadSherpaOnnx, pcm16ToFloat32, type SherpaOfflineSpeakerDiarization } from '../models/sherpa-runtime.ts';
import type { DiarizationHostReply, DiarizationHostRequest } from './sherpa-diarization.ts';

let diarization: SherpaOfflineSpeakerDiarization | undefined;

const send = (reply: DiarizationHostReply) => process.send?.(reply);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]!;

process.on('message', (request: DiarizationHostRequest) => {
  if (request.type === 'load') {
    try {
      diarization = new (loadSherpaOnnx().OfflineSpeakerDiarization)(request.config);
      send({ type: 'loaded', sampleRate: diarization.sampleRate });
    } catch (error) {
      send({ type: 'load-failed', message: messageOf(error) });
    }
    return;
  }
  if (!diarization) return void send({ type: 'failed', id: request.id, message: 'no diarization model is loaded' });
  try {
    const segments = diarization.process(pcm16ToFloat32(request.pcm)).map(({ start, end, speaker }) => ({ start, end, speaker }));
    send({ type: 'result', id: request.id, segments });
  } catch (error) {
    send({ type: 'failed', id: request.id, message: messageOf(error) });
  }
});
// The server closed the channel (it stopped, or let this host go): nothing more will come.
process.on('disconnect', () => process.exit(0));
