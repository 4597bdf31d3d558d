import { spawn } from 'node:child_process';

export const PCM_SAMPLE_RATE = 16_000;

/** 16 kHz mono signed 16-bit little-endian PCM: what every speech engine here consumes. */
export type Pcm16k = Buffer;

export class AudioDecodeError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AudioDecodeError';
  }
}

/**
 * ffmpeg's last words, for the person whose recording it was: without the server's file path,
 * which ffmpeg puts in front ("/data/blobs/ab/….wav: Invalid data found when processing input").
 */
export function ffmpegReason(stderr: string, inputPath: string, code: number | null): string {
  const last = stderr.trim().split('\n').pop()?.trim();
  if (!last) return `ffmpeg stopped with exit code ${code}`;
  return last.split(`${inputPath}: `).join('').split(inputPath).join('the file');
}

export type DecodeOptions = {
  denoise?: boolean;
  /** Only this channel (0-based) of a multi-channel recording, e.g. one capture source. */
  channel?: number;
  ffmpegPath?: string;
  /** Kills ffmpeg and rejects with the signal's reason (a cancelled job, a stage over its time limit). */
  signal?: AbortSignal;
};

/** afftdn: ffmpeg's FFT denoiser, for the meeting option "Noise Reduction" (steady background noise). */
const DENOISE_FILTER = 'afftdn=nf=-25';

function decodeArgs(inputPath: string, options: DecodeOptions): string[] {
  const chain = [...(options.channel !== undefined ? [`pan=mono|c0=c${options.channel}`] : []), ...(options.denoise ? [DENOISE_FILTER] : [])];
  const filters = chain.length > 0 ? ['-af', chain.join(',')] : [];
  return [
    '-nostdin',
    '-hide_banner',
    '-loglevel',
    'error',
    '-i',
    inputPath,
    '-vn',
    ...filters,
    '-ac',
    '1',
    '-ar',
    String(PCM_SAMPLE_RATE),
    '-f',
    's16le',
    'pipe:1',
  ];
}

/**
 * Decodes any audio ffmpeg understands (webm/opus, ogg, mp3, m4a, wav, mp4 audio) to 16 kHz mono
 * PCM. Corrupt or non-audio input becomes an AudioDecodeError with ffmpeg's own last words.
 */
export async function decodeToPcm16k(inputPath: string, options: DecodeOptions = {}): Promise<Pcm16k> {
  const ffmpegPath = options.ffmpegPath ?? 'ffmpeg';
  const args = decodeArgs(inputPath, options);
  return new Promise((resolve, reject) => {
    options.signal?.throwIfAborted();
    const child = spawn(ffmpegPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const onAbort = () => {
      child.kill('SIGKILL');
      reject(options.signal?.reason);
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.once('close', () => options.signal?.removeEventListener('abort', onAbort));
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    child.on('error', (error) => reject(new AudioDecodeError(`ffmpeg could not be started (${ffmpegPath}): ${error.message}`, { cause: error })));
    child.on('close', (code) => {
      const pcm = Buffer.concat(chunks);
      if (code !== 0) {
        reject(new AudioDecodeError(`The audio could not be decoded: ${ffmpegReason(stderr, inputPath, code)}`));
      } else if (pcm.length === 0) {
        reject(new AudioDecodeError('The file contains no audio.'));
      } else {
        resolve(pcm);
      }
    });
  });
}

/**
 * Decoded audio denoised as decoding with `denoise` does, for a caller that needs the audio both
 * ways: speaker identification hears the recording as it is (the denoiser reshapes each voice's
 * spectrum as it adapts, and split one reader into two speakers), the recogniser hears it denoised.
 * Written into `into` (reused window after window, so a long recording's copies are one buffer,
 * not one per window waiting for the collector), grown only if the audio does not fit.
 */
export async function denoisePcm(pcm: Pcm16k, options: Pick<DecodeOptions, 'ffmpegPath' | 'signal'> & { into?: Buffer } = {}): Promise<Pcm16k> {
  const ffmpegPath = options.ffmpegPath ?? 'ffmpeg';
  const rate = String(PCM_SAMPLE_RATE);
  const raw = ['-f', 's16le', '-ar', rate, '-ac', '1'];
  const args = ['-nostdin', '-hide_banner', '-loglevel', 'error', ...raw, '-i', 'pipe:0', '-af', DENOISE_FILTER, ...raw, 'pipe:1'];
  return new Promise((resolve, reject) => {
    options.signal?.throwIfAborted();
    const child = spawn(ffmpegPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const onAbort = () => {
      child.kill('SIGKILL');
      reject(options.signal?.reason);
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.once('close', () => options.signal?.removeEventListener('abort', onAbort));
    let out = options.into && options.into.length >= pcm.length ? options.into : Buffer.allocUnsafe(pcm.length);
    let filled = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (filled + chunk.length > out.length) out = Buffer.concat([out.subarray(0, filled)], Math.max(filled + chunk.length, out.length * 2));
      chunk.copy(out, filled);
      filled += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    // A killed ffmpeg closes its input early: the close below says why, not an EPIPE here.
    child.stdin.on('error', () => undefined);
    child.stdin.end(pcm);
    child.on('error', (error) => reject(new AudioDecodeError(`ffmpeg could not be started (${ffmpegPath}): ${error.message}`, { cause: error })));
    child.on('close', (code) => {
      if (code !== 0) reject(new AudioDecodeError(`The audio could not be denoised: ${ffmpegReason(stderr, 'pipe:0', code)}`));
      else resolve(out.subarray(0, filled));
    });
  });
}

/**
 * How long the recording says it is, from its container (ffprobe reads headers and, for Ogg, the
 * last page; nothing is decoded, so a file declaring ten hours costs nothing to ask). null when the
 * container does not say (a browser's WebM); an unreadable file is an AudioDecodeError.
 */
export async function probeDurationMs(inputPath: string, ffprobePath = 'ffprobe'): Promise<number | null> {
  const args = ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=noprint_wrappers=1:nokey=1', inputPath];
  return new Promise((resolve, reject) => {
    const child = spawn(ffprobePath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout = (stdout + chunk.toString('utf8')).slice(-200);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    child.on('error', (error) => reject(new AudioDecodeError(`ffprobe could not be started (${ffprobePath}): ${error.message}`, { cause: error })));
    child.on('close', (code) => {
      if (code !== 0) return reject(new AudioDecodeError(`The audio could not be decoded: ${ffmpegReason(stderr, inputPath, code)}`));
      const seconds = Number.parseFloat(stdout.trim());
      resolve(Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1000) : null);
    });
  });
}

const HOUR_MS = 3_600_000;
/** Containers round a length to whole frames and pages: "8 hours" from a recorder may read 8 h 0.01 s. */
const CAP_SLACK_MS = 1_000;
/** Hours to one decimal ("9.5"); more where that would read as the cap itself ("8.01", not "8"). */
const hoursOver = (hours: number, maxHours: number) => {
  const tenths = Math.round(hours * 10) / 10;
  return tenths > maxHours ? String(tenths) : String(Math.ceil(hours * 100) / 100);
};

/**
 * MAX_RECORDING_HOURS, as the person whose recording it is reads it: why a recording its container
 * says is `durationMs` long is refused, or null when it is within the cap. The upload's end and the
 * transcription job refuse with the same words.
 */
export function overlongReason(durationMs: number, maxHours: number): string | null {
  if (durationMs <= maxHours * HOUR_MS + CAP_SLACK_MS) return null;
  return `The recording is ${hoursOver(durationMs / HOUR_MS, maxHours)} hours long; this server transcribes up to ${maxHours} hours (MAX_RECORDING_HOURS).`;
}

/** The same, for a recording whose container did not say its length and whose decoding ran past the cap (AudioTooLongError). */
export const undeclaredOverlongReason = (maxHours: number): string =>
  `The recording is longer than ${maxHours} hours; this server transcribes up to ${maxHours} hours (MAX_RECORDING_HOURS).`;

/**
 * What decoding may yield past the cap before it is stopped: decoders add a few samples of padding
 * per joined part, so an 8-hour file can decode to 8 h 3 s. The cap itself is the container's word
 * (overlongReason on probeDurationMs); this catches a container that did not say, or lied by more than a minute.
 */
const DECODED_SLACK_MS = 60_000;
export const maxDecodedMs = (maxHours: number): number => maxHours * HOUR_MS + DECODED_SLACK_MS;

/** The decoded audio ran past the longest the caller allows (a container that did not say its length). */
export class AudioTooLongError extends Error {
  readonly maxMs: number;
  constructor(maxMs: number) {
    super(`The audio is longer than ${maxMs} ms.`);
    this.name = 'AudioTooLongError';
    this.maxMs = maxMs;
  }
}

/** A stretch of decoded audio: `pcm` starts `startMs` into the recording. */
export type PcmWindow = { startMs: number; pcm: Pcm16k };

export type WindowOptions = DecodeOptions & {
  /** Each window's own length; the next window starts this much later. */
  windowMs: number;
  /** Audio of the next window repeated at the end of each one, so a word cut at a window's end is whole in one of them. */
  overlapMs: number;
  /** Stops ffmpeg and throws AudioTooLongError once more audio than this has come out. */
  maxMs?: number;
};

const bytesOf = (ms: number) => Math.round((ms / 1000) * PCM_SAMPLE_RATE) * 2;

/**
 * decodeToPcm16k in windows: ffmpeg's output is read a window (plus overlap) at a time and handed
 * over before the next is read, so at most one window is held whatever the recording's length
 * (ffmpeg waits on its full pipe while a window is worked on). Errors as decodeToPcm16k's.
 * Every window is handed over in the same buffer: a consumer keeps nothing of one once it asks for
 * the next (it copies what must outlive it). A new buffer for each window left the spent ones to the
 * garbage collector, which let them pile up on a busy machine: two hours grew a worker by 135 MB
 * there, against 40 in one buffer (recording-limits.int.test.ts allows 120).
 */
export async function* decodePcmWindows(inputPath: string, options: WindowOptions): AsyncGenerator<PcmWindow> {
  const ffmpegPath = options.ffmpegPath ?? 'ffmpeg';
  options.signal?.throwIfAborted();
  const child = spawn(ffmpegPath, decodeArgs(inputPath, options), { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-2000);
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', (error) => reject(new AudioDecodeError(`ffmpeg could not be started (${ffmpegPath}): ${error.message}`, { cause: error })));
    child.on('close', (code) => resolve(code));
  });
  // Started before the first read so a failed spawn never goes unhandled.
  exited.catch(() => undefined);
  const kill = () => child.kill('SIGKILL');
  options.signal?.addEventListener('abort', kill, { once: true });
  const windowBytes = bytesOf(options.windowMs);
  const overlapBytes = bytesOf(options.overlapMs);
  const maxBytes = options.maxMs === undefined ? Infinity : bytesOf(options.maxMs);
  const window = Buffer.allocUnsafe(windowBytes + overlapBytes);
  let filled = 0;
  let startMs = 0;
  let total = 0;
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) throw new AudioTooLongError(options.maxMs!);
      let offset = 0;
      while (offset < chunk.length) {
        const n = Math.min(chunk.length - offset, window.length - filled);
        chunk.copy(window, filled, offset, offset + n);
        filled += n;
        offset += n;
        if (filled === window.length) {
          yield { startMs, pcm: window };
          options.signal?.throwIfAborted();
          // The overlap (the end of this window) begins the next.
          window.copyWithin(0, windowBytes);
          filled = overlapBytes;
          startMs += options.windowMs;
        }
      }
    }
    options.signal?.throwIfAborted();
    const code = await exited;
    if (code !== 0) throw new AudioDecodeError(`The audio could not be decoded: ${ffmpegReason(stderr, inputPath, code)}`);
    if (total === 0) throw new AudioDecodeError('The file contains no audio.');
    // The rest, or the overlap of a last window that came out exactly full.
    if (filled > 0) yield { startMs, pcm: window.subarray(0, filled - (filled % 2)) };
  } finally {
    options.signal?.removeEventListener('abort', kill);
    if (child.exitCode === null && child.signalCode === null) kill();
  }
}

export const pcmDurationMs = (pcm: Pcm16k): number => Math.round((pcm.length / 2 / PCM_SAMPLE_RATE) * 1000);

/**
 * Decodes the whole file without keeping it, to prove it is readable audio and to measure how
 * long it really is (browser recordings carry no duration in their headers). With `maxMs`, ffmpeg
 * is stopped and AudioTooLongError thrown once more audio than that has come out.
 */
export async function measureAudio(inputPath: string, options: { maxMs?: number; ffmpegPath?: string } = {}): Promise<{ durationMs: number }> {
  const ffmpegPath = options.ffmpegPath ?? 'ffmpeg';
  const maxBytes = options.maxMs === undefined ? Infinity : bytesOf(options.maxMs);
  const args = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-i', inputPath, '-vn', '-ac', '1', '-ar', String(PCM_SAMPLE_RATE), '-f', 's16le', 'pipe:1'];
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let bytes = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes && child.exitCode === null) {
        child.kill('SIGKILL');
        reject(new AudioTooLongError(options.maxMs!));
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    child.on('error', (error) => reject(new AudioDecodeError(`ffmpeg could not be started (${ffmpegPath}): ${error.message}`, { cause: error })));
    child.on('close', (code) => {
      if (code !== 0) reject(new AudioDecodeError(`The audio could not be decoded: ${ffmpegReason(stderr, inputPath, code)}`));
      else if (bytes === 0) reject(new AudioDecodeError('The file contains no audio.'));
      else resolve({ durationMs: Math.round((bytes / 2 / PCM_SAMPLE_RATE) * 1000) });
    });
  });
}

/**
 * Re-encodes a recording into `outputPath` with the given codec arguments (all audio channels
 * kept). Written to a file rather than a pipe so the muxer can go back and write what only the end
 * tells: the length in a WAV header, MP3's Xing frame, MP4's index.
 */
export async function transcodeAudio(inputPath: string, outputPath: string, codecArgs: readonly string[], ffmpegPath = 'ffmpeg'): Promise<void> {
  const args = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-i', inputPath, '-vn', '-map_metadata', '-1', ...codecArgs, outputPath];
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    child.on('error', (error) => reject(new AudioDecodeError(`ffmpeg could not be started (${ffmpegPath}): ${error.message}`, { cause: error })));
    child.on('close', (code) => {
      if (code !== 0) reject(new AudioDecodeError(`The audio could not be converted: ${ffmpegReason(stderr, inputPath, code)}`));
      else resolve();
    });
  });
}
