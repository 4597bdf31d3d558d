/**
 * The sherpa-onnx host: a child process of the server that holds the speech model and the Silero
 * VAD, cuts the audio at pauses and recognises each stretch of speech. Started by sherpa-onnx.ts
 * (built to dist/server/sherpa-onnx-host.js); it exits when the server goes away.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveHost } from '#server/lib/child-host/serve-host.ts';
import { loadSileroVad, VAD_SAMPLE_RATE, type SileroVad } from '../models/silero-vad.ts';
import { loadSherpaOnnx, type SherpaOfflineRecognizer } from '../models/sherpa-runtime.ts';
import type { RecognizedSegment } from './engine.ts';
import type { RecognizerHostConfig, RecognizerHostInput, RecognizerHostLoaded, RecognizerHostOutput, RecognizerRunContext } from './sherpa-onnx-protocol.ts';
import { bpeVocabFromTokens, hotwordsFromWords, parseTokens } from './sherpa-hotwords.ts';
import { toRecognizedSegment } from './sherpa-onnx-result.ts';

let recognizer: SherpaOfflineRecognizer;
let vad: SileroVad;
let maxSpeechMs = 20_000;
let hotwordsOf: (vocabulary: readonly string[]) => string | undefined = () => undefined;

serveHost<RecognizerHostConfig, RecognizerHostLoaded, RecognizerHostInput, RecognizerHostOutput>({
  async load(config) {
    const sherpa = loadSherpaOnnx();
    vad = loadSileroVad({ modelsDir: config.modelsDir });
    maxSpeechMs = config.maxSpeechMs;
    if (config.hotwords) {
      // The tokens say how the model spells (capitals for LibriSpeech zipformers, lower case for NeMo)
      // and which terms it can spell at all.
      const tokensText = await fs.promises.readFile(config.recognizer.modelConfig.tokens, 'utf8');
      const tokens = parseTokens(tokensText);
      hotwordsOf = (vocabulary) => hotwordsFromWords(vocabulary, tokens);
      // A model without its bpe.vocab (NeMo's) gets one made from its tokens, for this process's life:
      // without it, sherpa-onnx reads hotwords as CJK characters and encodes none of them.
      if (!config.hotwords.bpe) {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-sherpa-vocab-'));
        process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
        const bpeVocab = path.join(dir, 'bpe.vocab');
        await fs.promises.writeFile(bpeVocab, bpeVocabFromTokens(tokensText));
        config.recognizer.modelConfig = { ...config.recognizer.modelConfig, modelingUnit: 'bpe', bpeVocab };
      }
    }
    // createAsync reports unreadable files as an error; a file of the wrong kind ends this process,
    // which the server reads from our exit code and stderr.
    recognizer = await sherpa.OfflineRecognizer.createAsync(config.recognizer);
    return { vad: vad.origin };
  },
  async run(pcm, { signal, progress, context }) {
    const vocabulary = (context as RecognizerRunContext | undefined)?.vocabulary ?? [];
    const hotwords = vocabulary.length > 0 ? hotwordsOf(vocabulary) : undefined;
    const audio = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
    const totalMs = Math.max(1, (audio.length / 2 / VAD_SAMPLE_RATE) * 1000);
    const segments: RecognizedSegment[] = [];
    for await (const speech of vad.segments(audio, { maxSpeechMs, signal })) {
      signal.throwIfAborted();
      const stream = hotwords === undefined ? recognizer.createStream() : recognizer.createStream(hotwords);
      stream.acceptWaveform({ samples: speech.samples, sampleRate: VAD_SAMPLE_RATE });
      const segment = toRecognizedSegment(await recognizer.decodeAsync(stream), speech.startMs, speech.endMs);
      if (segment) segments.push(segment);
      progress(Math.min(1, speech.endMs / totalMs));
    }
    return segments;
  },
});
