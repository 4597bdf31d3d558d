import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '#server/config.ts';
import type { TranscriptionEngine } from '#server/features/transcription/engines/engine.ts';
import { createEngineRegistry } from '#server/features/transcription/engines/select-engine.ts';
import { postProcessSegments } from '#server/features/transcription/post-process.ts';
import { diarizationErrorRate, parseRttm, turnsFromFrames, type Turn } from '#server/features/transcription/speakers/diarization-error-rate.ts';
import { createSpeakerIdentifier, type SpeakerIdentifier } from '#server/features/transcription/speakers/identify-speakers.ts';
import { wordErrorRate } from '#server/features/transcription/word-error-rate.ts';
import { decodeToPcm16k, pcmDurationMs } from '#server/lib/ffmpeg.ts';
import { diarizeFrames } from '#server/features/transcription/speakers/cluster-speakers.ts';
import { FRAME_MS } from '#server/features/transcription/speakers/speaker-features.ts';
import { createSpeechDetector } from '#server/features/transcription/speakers/voice-activity.ts';
import { watchEventLoop } from '#tests/support/event-loop-watch.ts';
import { fliteMeeting, longFliteMeeting } from '#tests/support/flite-meeting.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import type { Row } from './lib/report.ts';

/**
 * Transcription quality and speed per available engine, on the real clips of ../shared/data/audio
 * and on a three-voice meeting spoken by flite (when installed): word error rate against the
 * reference text; diarization error rate against the reference turns where there are some (RTTM,
 * or the flite meeting's own), speakers found otherwise; real-time factor of the bare engine; and
 * the whole pipeline's time (decode, recognise, identify speakers, post-process) as a ratio to the
 * bare engine on the same PCM, whose goal is ≤ 1.15.
 */
type Clip = { name: string; file: string; text: string | null; speakers: number; turns?: Turn[] };

function sharedClips(): Clip[] {
  const dir = sharedAudioDir();
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Array<{
    file: string;
    reference_text: string | null;
    speakers: number;
    rttm?: string;
  }>;
  return manifest.map((clip) => ({
    name: clip.file,
    file: path.join(dir, clip.file),
    text: clip.reference_text,
    speakers: clip.speakers,
    turns: clip.rttm ? parseRttm(fs.readFileSync(path.join(dir, clip.rttm), 'utf8')) : undefined,
  }));
}

/** The flite meeting as a WAV file, so it is decoded like the others; none without flite. */
function fliteClip(scratch: string): Clip | undefined {
  if (!fs.existsSync('/usr/bin/flite')) return undefined;
  const meeting = fliteMeeting();
  const file = path.join(scratch, 'flite-meeting.wav');
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-f', 's16le', '-ar', '16000', '-ac', '1', '-i', '-', file], { input: meeting.pcm });
  return { name: 'flite 3-voice meeting (generated)', file, text: meeting.text, speakers: 3, turns: meeting.turns };
}

const pct = (value: number) => `${(value * 100).toFixed(1)} %`;
const COLUMNS = ['WER', 'speaker error', 'speakers', 'RTF', 'pipeline'] as const;
const WIDTHS = [8, 16, 9, 6, 9];
const tableRow = (cells: string[]) =>
  cells
    .map((cell, i) => cell.padEnd(WIDTHS[i]!))
    .join(' ')
    .trimEnd();

async function benchEngine(engine: TranscriptionEngine, speakers: SpeakerIdentifier, clips: Clip[], hostStartMs: number): Promise<Row[]> {
  const rows: Row[] = [{ name: 'clip (length)', value: tableRow([...COLUMNS]) }];
  const totals = { audio: 0, engine: 0, pipeline: 0, speakers: 0 };
  for (const clip of clips) {
    const started = performance.now();
    const pcm = await decodeToPcm16k(clip.file);
    const decodeMs = performance.now() - started;
    const engineStart = performance.now();
    const segments = (await engine.transcribe(pcm)).filter((s) => s.text.trim() !== '');
    const bareMs = performance.now() - engineStart;
    const speakerStart = performance.now();
    const identified = await speakers.identify(pcm, segments);
    const speakersMs = performance.now() - speakerStart;
    postProcessSegments(identified.segments, { punctuation: true, fillerWordRemoval: false });
    const afterMs = performance.now() - speakerStart;
    const durationMs = pcmDurationMs(pcm);
    totals.audio += durationMs;
    totals.engine += bareMs;
    totals.pipeline += decodeMs + bareMs + afterMs;
    totals.speakers += speakersMs;

    const wer = clip.text ? pct(wordErrorRate(clip.text, segments.map((s) => s.text).join(' '))) : 'n/a';
    // What the transcript shows: each line's time under its speaker.
    const hypothesis = identified.segments.map((s) => ({ startMs: s.startMs, endMs: s.endMs, speaker: String(s.speaker) }));
    const speakerError = clip.turns ? `DER ${pct(diarizationErrorRate(clip.turns, hypothesis, { collarSeconds: 0.25 }).der)}` : 'n/a';
    rows.push({
      name: `${clip.name} (${(durationMs / 1000).toFixed(1)} s)`,
      value: tableRow([
        wer,
        speakerError,
        `${identified.speakers.length}/${clip.speakers}`,
        (bareMs / durationMs).toFixed(2),
        `×${((decodeMs + bareMs + afterMs) / bareMs).toFixed(2)}`,
      ]),
    });
  }
  rows.push({
    name: 'all clips',
    value:
      `RTF ${(totals.engine / totals.audio).toFixed(2)} (engine), pipeline ×${(totals.pipeline / totals.engine).toFixed(2)} of the bare engine (goal ≤ 1.15), ` +
      `speaker identification ${((totals.speakers / totals.audio) * 60_000).toFixed(0)} ms per minute of audio (its host process started once before, in ${hostStartMs.toFixed(0)} ms)`,
  });
  return rows;
}

/**
 * Clustering alone on long meetings (no engine): a generated 10-minute three-voice flite meeting
 * for quality, and an hour (that meeting six times over) for time, where clustering works on a
 * sample of windows. Each goes through the speaker identifier as the server runs it (clustering
 * in its host process; one segment per spoken turn), timing it and the longest wait of this
 * process's event loop meanwhile; the 10-minute one is also clustered frame by frame here for its
 * diarization error rate.
 */
async function benchLongMeetings(): Promise<Row[]> {
  const meeting = longFliteMeeting({ minutes: 10 });
  const meetingMs = pcmDurationMs(meeting.pcm);
  const { detector } = createSpeechDetector();
  const speakers = createSpeakerIdentifier({ method: 'clustering' });
  const rows: Row[] = [];
  try {
    for (const [name, repeat] of [
      ['10-minute 3-voice flite meeting', 1],
      ['the same, six times over (1 hour)', 6],
    ] as const) {
      const pcm = Buffer.concat(Array.from({ length: repeat }, () => meeting.pcm));
      const turns = Array.from({ length: repeat }, (_, r) =>
        meeting.turns.map((t) => ({ ...t, startMs: t.startMs + r * meetingMs, endMs: t.endMs + r * meetingMs })),
      ).flat();
      const segments = turns.map((t, i) => ({ startMs: t.startMs, endMs: t.endMs, text: `turn ${i + 1}`, words: [], confidence: 1 }));
      let quality = '';
      if (repeat === 1) {
        const hypothesis = turnsFromFrames(diarizeFrames(pcm, { speech: await detector.detect(pcm) }), FRAME_MS);
        quality = `, DER ${pct(diarizationErrorRate(turns, hypothesis, { collarSeconds: 0.25 }).der)} frame by frame`;
      }
      const loop = watchEventLoop();
      const started = performance.now();
      const identified = await speakers.identify(pcm, segments);
      const ms = performance.now() - started;
      const longestGap = loop.stop();
      const minutes = pcmDurationMs(pcm) / 60_000;
      rows.push({
        name: `${name} (${minutes.toFixed(1)} min)`,
        value: `${identified.speakers.length}/3 speakers${quality}, ${(ms / 1000).toFixed(1)} s (${(ms / minutes / 1000).toFixed(2)} s per minute), longest event-loop wait ${longestGap.toFixed(0)} ms`,
      });
    }
  } finally {
    await speakers.close();
  }
  return rows;
}

export async function benchTranscription(): Promise<{ title: string; rows: Row[] }[]> {
  const config = loadConfig({ ...process.env, DATA_DIR: process.env.DATA_DIR ?? 'data' });
  const registry = createEngineRegistry(config);
  const speakers = createSpeakerIdentifier({
    method: 'auto',
    modelsDir: config.models.dir,
    onFallback: (reason) => console.warn(`speaker identification fell back to clustering: ${reason}`),
  });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-'));
  try {
    const flite = fliteClip(scratch);
    const clips = [...sharedClips(), ...(flite ? [flite] : [])];
    const status = await speakers.status();
    const method =
      status.method === 'sherpa-onnx'
        ? 'sherpa-onnx diarization'
        : `clustering (voice activity: ${status.voiceActivity === 'silero' ? 'energy checked by Silero VAD' : 'energy'})`;
    // The speaker host process starts on first use (then stays for 10 idle minutes): timed apart, once.
    const hostStarted = performance.now();
    await speakers.identify(Buffer.alloc(32_000), []);
    const hostStartMs = performance.now() - hostStarted;
    const sections: { title: string; rows: Row[] }[] = [];
    const skipped: Row[] = [];
    for (const engine of registry.engines) {
      const availability = await engine.checkAvailability();
      if (!availability.available) {
        skipped.push({ name: engine.name, value: availability.reason });
        continue;
      }
      sections.push({
        title: `Transcription: ${engine.name}, speakers by ${method}; WER, DER (0.25 s collar), speakers found/present, RTF, pipeline ÷ bare engine`,
        rows: await benchEngine(engine, speakers, clips, hostStartMs),
      });
    }
    if (flite) sections.push({ title: 'Speaker identification by clustering on long meetings (no engine)', rows: await benchLongMeetings() });
    else skipped.push({ name: 'flite meetings', value: 'flite is not installed (apt-get install flite)' });
    for (const reason of status.reasons) skipped.push({ name: 'speakers', value: reason });
    if (skipped.length > 0) sections.push({ title: 'Transcription: not measured', rows: skipped });
    return sections;
  } finally {
    await speakers.close();
    await registry.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
