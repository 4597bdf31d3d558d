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

/**
 * Decodes any audio ffmpeg understands (webm/opus, ogg, mp3, m4a, wav, mp4 audio) to 16 kHz mono
 * PCM. Corrupt or non-audio input becomes an AudioDecodeError with ffmpeg's own last words.
 */
export async function decodeToPcm16k(inputPath: string, options: DecodeOptions = {}): Promise<Pcm16k> {
  const ffmpegPath = options.ffmpegPath ?? 'ffmpeg';
  // afftdn: ffmpeg's FFT denoiser, for the meeting option "Noise Reduction" (steady background noise).
  const chain = [...(options.channel !== undefined ? [`pan=mono|c0=c${options.channel}`] : []), ...(options.denoise ? ['afftdn=nf=-25'] : [])];
  const filters = chain.length > 0 ? ['-af', chain.join(',')] : [];
  const args = [
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

export const pcmDurationMs = (pcm: Pcm16k): number => Math.round((pcm.length / 2 / PCM_SAMPLE_RATE) * 1000);

/**
 * Decodes the whole file without keeping it, to prove it is readable audio and to measure how
 * long it really is (browser recordings carry no duration in their headers).
 */
export async function measureAudio(inputPath: string, ffmpegPath = 'ffmpeg'): Promise<{ durationMs: number }> {
  const args = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-i', inputPath, '-vn', '-ac', '1', '-ar', String(PCM_SAMPLE_RATE), '-f', 's16le', 'pipe:1'];
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let bytes = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
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
