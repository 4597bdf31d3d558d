import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Turn } from '#server/features/transcription/speakers/diarization-error-rate.ts';

/**
 * A meeting spoken by three of Debian flite's voices taking turns, made in the test: 16 kHz mono
 * PCM, the words said, and the exact turns (each line's speech, its leading and trailing silence
 * trimmed) as a diarization reference. Optionally with noise between some turns (a brown-noise
 * rumble and a hum), which no speaker makes. `longFliteMeeting` makes minutes of such talk.
 */
export const FLITE_LINES: ReadonlyArray<readonly [voice: string, text: string]> = [
  ['kal16', 'good morning everyone let us review the budget for the next quarter'],
  ['slt', 'thank you the marketing campaign is ready and the launch is planned for friday'],
  ['awb', 'the database migration is blocked we still need the production credentials'],
  ['kal16', 'i will ask the platform team to send them today'],
  ['slt', 'great then we can test the release on thursday morning'],
  ['awb', 'sounds good i will prepare the backup before we start'],
];

export type FliteMeeting = { pcm: Buffer; text: string; turns: Turn[]; noise: Array<{ startMs: number; endMs: number }> };

const RATE = 16_000;
const PAUSE_MS = 700;
const msToBytes = (ms: number) => Math.round((ms * RATE) / 1000) * 2;
const bytesToMs = (bytes: number) => (bytes / 2 / RATE) * 1000;

function ffmpegPcm(args: string[]): Buffer {
  return execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', ...args, '-ac', '1', '-ar', String(RATE), '-f', 's16le', '-'], {
    maxBuffer: 64 * 1024 * 1024,
  });
}

const TRIM = 'silenceremove=start_periods=1:start_threshold=-45dB,areverse,silenceremove=start_periods=1:start_threshold=-45dB,areverse';

export function fliteMeeting(options: { withNoise?: boolean } = {}): FliteMeeting {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-flite-'));
  try {
    const pieces: Buffer[] = [];
    const turns: Turn[] = [];
    const noise: FliteMeeting['noise'] = [];
    let at = 0;
    const add = (pcm: Buffer) => {
      pieces.push(pcm);
      at += pcm.length;
    };
    const noises = [
      ffmpegPcm(['-f', 'lavfi', '-i', 'anoisesrc=color=brown:amplitude=0.3:duration=1.2']),
      ffmpegPcm(['-f', 'lavfi', '-i', 'sine=frequency=300:duration=1.2', '-af', 'volume=0.2']),
    ];
    FLITE_LINES.forEach(([voice, text], i) => {
      const wav = path.join(scratch, `line-${i}.wav`);
      execFileSync('flite', ['-voice', voice, '-t', text, '-o', wav]);
      const speech = ffmpegPcm(['-i', wav, '-af', TRIM]);
      turns.push({ startMs: bytesToMs(at), endMs: bytesToMs(at + speech.length), speaker: voice });
      add(speech);
      add(Buffer.alloc(msToBytes(PAUSE_MS)));
      if (options.withNoise && i % 2 === 0) {
        const burst = noises[(i / 2) % noises.length]!;
        noise.push({ startMs: bytesToMs(at), endMs: bytesToMs(at + burst.length) });
        add(burst);
        add(Buffer.alloc(msToBytes(PAUSE_MS)));
      }
    });
    return { pcm: Buffer.concat(pieces), text: FLITE_LINES.map(([, text]) => text).join(' '), turns, noise };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

const VOCABULARY = (
  'the budget team project release customer data we need to plan review next week meeting quarter sales product design ' +
  'test launch marketing campaign server database migration backup schedule deadline report numbers growth risk issue ' +
  'feature user feedback support ticket contract partner price cost hire interview office travel training goal metric ' +
  'dashboard update status blocked done ready thanks agree think maybe should could will can today tomorrow friday monday'
).split(' ');

/**
 * A meeting-room recording's harder conditions, roughly: people at different distances from the
 * microphone (each voice at its own level), quick exchanges (turns of 1 to 10 words, pauses of
 * 0.1 to 0.5 s), the room's echo and a steady background noise.
 */
const ROOM = {
  /** Each voice's level (RMS of its turns), in turn: the first near the microphone, the others 3 to 9 dB quieter. */
  levels: [0.1, 0.05, 0.07, 0.035],
  words: [1, 10],
  pauseMs: [100, 500],
  echo: 'aecho=0.8:0.7:19|37|61|89:0.4|0.3|0.2|0.12',
  noise: 'anoisesrc=color=pink:amplitude=0.008:seed=1',
} as const;

/**
 * A long meeting: the same three voices (or `voices`) taking turns of 6 to 23 words (never one
 * voice twice in a row) made of a fixed vocabulary, with pauses of 0.2 to 1 s, until `minutes` are
 * reached. The words come from a seeded generator, so the meeting is the same on every run.
 * `room`: heard as in a meeting room (see ROOM); the reference turns stay the dry speech's.
 */
export function longFliteMeeting(options: { minutes: number; seed?: number; voices?: readonly string[]; room?: boolean }): FliteMeeting {
  const voices = options.voices ?? ['kal16', 'slt', 'awb'];
  let state = options.seed ?? 7;
  const random = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-flite-'));
  try {
    const pieces: Buffer[] = [];
    const turns: Turn[] = [];
    const said: string[] = [];
    let at = 0;
    let previous = -1;
    const wav = path.join(scratch, 'line.wav');
    while (at < msToBytes(options.minutes * 60_000)) {
      const voice = voices.length === 1 ? 0 : (previous + 1 + Math.floor(random() * (voices.length - 1))) % voices.length;
      previous = voice;
      const [fewest, most] = options.room ? ROOM.words : [6, 23];
      const text = Array.from(
        { length: fewest + Math.floor(random() * (most - fewest + 1)) },
        () => VOCABULARY[Math.floor(random() * VOCABULARY.length)]!,
      ).join(' ');
      execFileSync('flite', ['-voice', voices[voice]!, '-t', text, '-o', wav]);
      const trimmed = ffmpegPcm(['-i', wav, '-af', TRIM]);
      const speech = options.room ? atLevel(trimmed, ROOM.levels[voice % ROOM.levels.length]!) : trimmed;
      turns.push({ startMs: bytesToMs(at), endMs: bytesToMs(at + speech.length), speaker: voices[voice]! });
      said.push(text);
      const [shortest, longest] = options.room ? ROOM.pauseMs : [200, 1000];
      const pause = Buffer.alloc(msToBytes(shortest + random() * (longest - shortest)));
      pieces.push(speech, pause);
      at += speech.length + pause.length;
    }
    const dry = Buffer.concat(pieces);
    return { pcm: options.room ? inRoom(dry, scratch) : dry, text: said.join(' '), turns, noise: [] };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** `pcm` scaled to an RMS of `level` (full scale 1), as flite's voices differ in loudness by up to 13 dB. */
function atLevel(pcm: Buffer, level: number): Buffer {
  let energy = 0;
  for (let i = 0; i < pcm.length; i += 2) energy += (pcm.readInt16LE(i) / 32768) ** 2;
  const gain = level / Math.max(1e-6, Math.sqrt(energy / (pcm.length / 2)));
  const out = Buffer.alloc(pcm.length);
  for (let i = 0; i < pcm.length; i += 2) out.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(pcm.readInt16LE(i) * gain))), i);
  return out;
}

/** `pcm` with the room's echo and background noise, as long as it was. */
function inRoom(pcm: Buffer, scratch: string): Buffer {
  const dry = path.join(scratch, 'dry.pcm');
  fs.writeFileSync(dry, pcm);
  const seconds = bytesToMs(pcm.length) / 1000;
  return ffmpegPcm([
    ...['-f', 's16le', '-ar', String(RATE), '-ac', '1', '-i', dry],
    ...['-f', 'lavfi', '-i', `${ROOM.noise}:duration=${seconds}:sample_rate=${RATE}`],
    ...['-filter_complex', `[0]${ROOM.echo}[wet];[wet][1]amix=inputs=2:duration=first:normalize=0`],
  ]).subarray(0, pcm.length);
}
