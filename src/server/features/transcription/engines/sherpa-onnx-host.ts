/**
 * The sherpa-onnx host: a child process of the server that holds the speech model and the Silero
 * VAD, cuts the audio at pauses and recognises each stretch of speech. Started by sherpa-onnx.ts
 * (built to dist/server/sherpa-onnx-host.js); it exits when the server goes away.
 */
import { loadSileroVad, VAD_SAMPLE_RATE, type SileroVad } from '../models/silero-vad.ts';
import { loadSherpaOnnx, type SherpaOfflineRecognizer } from '../models/sherpa-runtime.ts';
import type { RecognizedSegment } from './engine.ts';
import type { HostReply, HostRequest } from './sherpa-onnx-protocol.ts';
import { toRecognizedSegment } from './sherpa-onnx-result.ts';

let recognizer: SherpaOfflineRecognizer | undefined;
let vad: SileroVad | undefined;
let maxSpeechMs = 20_000;
const cancelled = new Set<number>();
/** One transcription at a time: the recogniser is not shared between concurrent decodes. */
let queue: Promise<void> = Promise.resolve();

const send = (reply: HostReply) => process.send?.(reply);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]!;

async function load(request: Extract<HostRequest, { type: 'load' }>): Promise<void> {
  try {
    const sherpa = loadSherpaOnnx();
    vad = loadSileroVad({ modelsDir: request.modelsDir });
    maxSpeechMs = request.maxSpeechMs;
    // createAsync reports unreadable files as an error; a file of the wrong kind ends this process,
    // which the server reads from our exit code and stderr.
    recognizer = await sherpa.OfflineRecognizer.createAsync(request.recognizer);
    send({ type: 'loaded', vad: vad.origin });
  } catch (error) {
    send({ type: 'load-failed', message: messageOf(error) });
  }
}

async function transcribe(id: number, pcm: Uint8Array): Promise<void> {
  if (!recognizer || !vad) return void send({ type: 'failed', id, message: 'no model is loaded', cancelled: false });
  const audio = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  const totalMs = Math.max(1, (audio.length / 2 / VAD_SAMPLE_RATE) * 1000);
  const abort = new AbortController();
  const segments: RecognizedSegment[] = [];
  try {
    for await (const speech of vad.segments(audio, { maxSpeechMs, signal: abort.signal })) {
      if (cancelled.has(id)) abort.abort();
      abort.signal.throwIfAborted();
      const stream = recognizer.createStream();
      stream.acceptWaveform({ samples: speech.samples, sampleRate: VAD_SAMPLE_RATE });
      const result = await recognizer.decodeAsync(stream);
      const segment = toRecognizedSegment(result, speech.startMs, speech.endMs);
      if (segment) segments.push(segment);
      send({ type: 'progress', id, fraction: Math.min(1, speech.endMs / totalMs) });
    }
    send({ type: 'result', id, segments });
  } catch (error) {
    send({ type: 'failed', id, message: messageOf(error), cancelled: cancelled.has(id) });
  } finally {
    cancelled.delete(id);
  }
}

process.on('message', (request: HostRequest) => {
  if (request.type === 'cancel') cancelled.add(request.id);
  else if (request.type === 'load') queue = queue.then(() => load(request));
  else queue = queue.then(() => transcribe(request.id, request.pcm));
});
// The server closed the channel (it stopped, or let this host go): nothing more will come.
process.on('disconnect', () => process.exit(0));
