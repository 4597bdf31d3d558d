import { PCM_SAMPLE_RATE, type Pcm16k } from '#server/lib/ffmpeg.ts';
import {
  meanConfidence,
  type EngineAvailability,
  type RecognizedSegment,
  type RecognizedWord,
  type TranscribeOptions,
  type TranscriptionEngine,
} from './engine.ts';

/**
 * Any OpenAI-compatible speech-to-text service (`POST /v1/audio/transcriptions`): OpenAI, Groq,
 * self-hosted faster-whisper / speaches, or whisper.cpp's server. Audio goes up as a 16 kHz mono
 * WAV; `verbose_json` with segment and word timestamps comes back.
 */
export type OpenAiCompatibleOptions = { url: string; apiKey?: string | undefined; model: string; timeoutMs: number; fetch?: typeof fetch };

type VerboseJson = {
  text?: string;
  segments?: { start: number; end: number; text: string; avg_logprob?: number; no_speech_prob?: number }[];
  words?: { word: string; start: number; end: number; probability?: number }[];
};

export class TranscriptionServiceError extends Error {
  readonly status: number | undefined;

  constructor(message: string, status?: number) {
    super(message);
    this.name = 'TranscriptionServiceError';
    this.status = status;
  }
}

/** A WAV file around raw PCM (RIFF header, 16-bit mono), as these services expect a file. */
export function pcmToWav(pcm: Pcm16k): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(PCM_SAMPLE_RATE, 24);
  header.writeUInt32LE(PCM_SAMPLE_RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}

function endpoint(base: string): string {
  const trimmed = base.replace(/\/+$/, '');
  return trimmed.endsWith('/v1') ? `${trimmed}/audio/transcriptions` : `${trimmed}/v1/audio/transcriptions`;
}

/** Turns the service's segments and words into ours, words assigned to the segment they fall in. */
export function fromVerboseJson(body: VerboseJson): RecognizedSegment[] {
  const words: RecognizedWord[] = (body.words ?? []).map((w) => ({
    text: w.word.trim(),
    startMs: Math.round(w.start * 1000),
    endMs: Math.round(w.end * 1000),
    confidence: w.probability ?? 1,
  }));
  const segments = body.segments ?? (body.text ? [{ start: 0, end: words.at(-1)?.endMs ? words.at(-1)!.endMs / 1000 : 0, text: body.text }] : []);
  return segments
    .map((s) => {
      const startMs = Math.round(s.start * 1000);
      const endMs = Math.round(s.end * 1000);
      const inside = words.filter((w) => w.startMs >= startMs && w.startMs < Math.max(endMs, startMs + 1));
      const confidence = inside.length > 0 ? meanConfidence(inside) : 'avg_logprob' in s && typeof s.avg_logprob === 'number' ? Math.exp(s.avg_logprob) : 1;
      return { startMs, endMs, text: s.text.trim(), words: inside, confidence: Math.max(0, Math.min(1, confidence)) };
    })
    .filter((s) => s.text !== '');
}

/** Whisper reads at most 224 tokens of prompt (the rest is cut from the front): about this many characters. */
const MAX_PROMPT_CHARS = 600;

/**
 * The custom vocabulary as the speech API's `prompt`: Whisper-style models continue the prompt's
 * style and spellings, so a list of the terms makes them likelier, spelled as listed. Terms that do
 * not fit are left out (the corrections pass after recognition still has them).
 */
export function vocabularyPrompt(terms: readonly string[]): string | undefined {
  let prompt = '';
  for (const term of terms) {
    const next = prompt === '' ? `Glossary: ${term}` : `${prompt}, ${term}`;
    if (next.length + 1 > MAX_PROMPT_CHARS) break;
    prompt = next;
  }
  return prompt === '' ? undefined : `${prompt}.`;
}

export function createOpenAiCompatibleEngine(options: OpenAiCompatibleOptions): TranscriptionEngine {
  const doFetch = options.fetch ?? fetch;
  const url = endpoint(options.url);
  return {
    name: 'openai-compatible',
    async checkAvailability(): Promise<EngineAvailability> {
      return { available: true }; // configured; a failing service shows up as a failed job with its reason
    },
    async transcribe(pcm: Pcm16k, transcribeOptions: TranscribeOptions = {}): Promise<RecognizedSegment[]> {
      const form = new FormData();
      form.append('file', new Blob([Uint8Array.from(pcmToWav(pcm))], { type: 'audio/wav' }), 'audio.wav');
      form.append('model', options.model);
      form.append('response_format', 'verbose_json');
      form.append('timestamp_granularities[]', 'segment');
      form.append('timestamp_granularities[]', 'word');
      if (transcribeOptions.language) form.append('language', transcribeOptions.language);
      const prompt = vocabularyPrompt(transcribeOptions.vocabulary ?? []);
      if (prompt) form.append('prompt', prompt);
      const signals = [AbortSignal.timeout(options.timeoutMs), ...(transcribeOptions.signal ? [transcribeOptions.signal] : [])];
      let response: Response;
      try {
        response = await doFetch(url, {
          method: 'POST',
          headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
          body: form,
          signal: AbortSignal.any(signals),
        });
      } catch (error) {
        if (error instanceof DOMException && error.name === 'TimeoutError') {
          const limit = options.timeoutMs >= 1000 ? `${Math.round(options.timeoutMs / 1000)} s` : `${options.timeoutMs} ms`;
          throw new TranscriptionServiceError(`The transcription service did not answer within ${limit}.`);
        }
        throw new TranscriptionServiceError(`The transcription service could not be reached (${new URL(url).host}).`);
      }
      const text = await response.text();
      if (!response.ok) {
        let detail: string;
        try {
          detail = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? '';
        } catch {
          detail = text.slice(0, 200); // not JSON: the start of whatever came back
        }
        throw new TranscriptionServiceError(
          `The transcription service refused the audio (HTTP ${response.status}${detail ? `: ${detail}` : ''}).`,
          response.status,
        );
      }
      let body: VerboseJson;
      try {
        body = JSON.parse(text) as VerboseJson;
      } catch {
        throw new TranscriptionServiceError('The transcription service answered with something that is not JSON.');
      }
      return fromVerboseJson(body);
    },
  };
}
