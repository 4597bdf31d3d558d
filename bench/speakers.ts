import fs from 'node:fs';
import path from 'node:path';
import { diarizeFrames } from '#server/features/transcription/speakers/cluster-speakers.ts';
import { diarizationErrorRate, parseRttm, turnsFromFrames, type Turn } from '#server/features/transcription/speakers/diarization-error-rate.ts';
import { FRAME_MS } from '#server/features/transcription/speakers/speaker-features.ts';
import { createSpeechDetector } from '#server/features/transcription/speakers/voice-activity.ts';
import { decodeToPcm16k } from '#server/lib/ffmpeg.ts';
import { fliteMeeting, longFliteMeeting } from '#tests/support/flite-meeting.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import type { Row } from './lib/report.ts';

/**
 * Speaker counts (issue 32): per clip, the speakers there are and the speakers the built-in
 * clustering finds, and the diarization error rate where reference turns exist (NIST md-eval's
 * definition: missed + false alarm + confusion over reference speech, best one-to-one speaker
 * mapping, overlap scored, a 0.25 s no-score collar either side of each reference boundary). Clips:
 * ../shared/data/audio and meetings spoken by Debian flite's voices (generated here, seeded).
 *
 * The clustering's constants were tuned on the "tune" clips only; the "held out" ones were never
 * looked at while tuning, so their figures say how the tuning carries to audio it has not seen.
 * With `attendees` known (a calendar invite, the meeting's participants) the count is also capped
 * by it: the last column.
 */
type Clip = { name: string; pcm: Buffer; speakers: number; turns?: Turn[]; split: 'tune' | 'held out' };

/** Which shared clips tune the constants; the rest are held out. */
const TUNE = new Set(['leopard_3spk.wav', 'jfk.wav', 'librispeech_mr_quilter.wav', 'goforward.wav', 'fw_left.wav']);

async function sharedClips(): Promise<Clip[]> {
  const dir = sharedAudioDir();
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Array<{ file: string; speakers: number; rttm?: string }>;
  const clips: Clip[] = [];
  for (const clip of manifest) {
    clips.push({
      name: clip.file,
      pcm: await decodeToPcm16k(path.join(dir, clip.file)),
      speakers: clip.speakers,
      turns: clip.rttm ? parseRttm(fs.readFileSync(path.join(dir, clip.rttm), 'utf8')) : undefined,
      split: TUNE.has(clip.file) ? 'tune' : 'held out',
    });
  }
  return clips;
}

/** Generated meetings: flite's five distinct voices in groups of 1 to 4, short and a few minutes long. */
function generatedClips(): Clip[] {
  if (!fs.existsSync('/usr/bin/flite')) return [];
  const clip = (name: string, meeting: { pcm: Buffer; turns: Turn[] }, split: Clip['split']): Clip => ({
    name,
    pcm: meeting.pcm,
    speakers: new Set(meeting.turns.map((t) => t.speaker)).size,
    turns: meeting.turns,
    split,
  });
  return [
    clip('flite 3 voices, 6 turns', fliteMeeting(), 'tune'),
    clip('flite 2 voices (slt, rms), 1 min', longFliteMeeting({ minutes: 1, seed: 3, voices: ['slt', 'rms'] }), 'tune'),
    clip('flite 1 voice (awb), 1 min', longFliteMeeting({ minutes: 1, seed: 5, voices: ['awb'] }), 'tune'),
    clip('flite 4 voices (awb, kal16, slt, rms), 90 s', longFliteMeeting({ minutes: 1.5, seed: 19, voices: ['awb', 'kal16', 'slt', 'rms'] }), 'tune'),
    clip('flite 3 voices (kal, awb, rms), 2 min', longFliteMeeting({ minutes: 2, seed: 23, voices: ['kal', 'awb', 'rms'] }), 'tune'),
    clip('flite 4 voices, 2 min', longFliteMeeting({ minutes: 2, seed: 11, voices: ['kal16', 'slt', 'awb', 'rms'] }), 'held out'),
    clip('flite 3 voices (rms, slt, kal), 3 min', longFliteMeeting({ minutes: 3, seed: 13, voices: ['rms', 'slt', 'kal'] }), 'held out'),
    clip('flite 2 voices (awb, kal16), 40 s', longFliteMeeting({ minutes: 0.67, seed: 17, voices: ['awb', 'kal16'] }), 'held out'),
    // As in a meeting room: voices at different distances, quick exchanges, echo and noise.
    clip('room: flite 1 voice (rms), 1 min', longFliteMeeting({ minutes: 1, seed: 43, voices: ['rms'], room: true }), 'tune'),
    clip('room: flite 2 voices (kal16, slt), 1 min', longFliteMeeting({ minutes: 1, seed: 31, voices: ['kal16', 'slt'], room: true }), 'tune'),
    clip('room: flite 3 voices (awb, rms, kal), 2 min', longFliteMeeting({ minutes: 2, seed: 37, voices: ['awb', 'rms', 'kal'], room: true }), 'tune'),
    clip(
      'room: flite 4 voices (slt, kal16, rms, awb), 2 min',
      longFliteMeeting({ minutes: 2, seed: 41, voices: ['slt', 'kal16', 'rms', 'awb'], room: true }),
      'tune',
    ),
    clip('room: flite 1 voice (slt), 40 s', longFliteMeeting({ minutes: 0.67, seed: 59, voices: ['slt'], room: true }), 'held out'),
    clip('room: flite 2 voices (rms, awb), 2 min', longFliteMeeting({ minutes: 2, seed: 53, voices: ['rms', 'awb'], room: true }), 'held out'),
    clip('room: flite 3 voices (slt, awb, kal16), 90 s', longFliteMeeting({ minutes: 1.5, seed: 47, voices: ['slt', 'awb', 'kal16'], room: true }), 'held out'),
  ];
}

const pct = (value: number) => `${(value * 100).toFixed(1)} %`;

export async function benchSpeakers(): Promise<Row[]> {
  const { detector } = createSpeechDetector();
  const clips = [...(await sharedClips()), ...generatedClips()];
  const rows: Row[] = [{ name: 'clip (split)', value: 'true  found  DER (0.25 s collar)  found with attendees known' }];
  const time = { ms: 0, minutes: 0 };
  const tally = { tune: { right: 0, all: 0, der: [] as number[] }, 'held out': { right: 0, all: 0, der: [] as number[] } };
  for (const clip of clips) {
    const speech = await detector.detect(clip.pcm);
    const started = performance.now();
    const labels = diarizeFrames(clip.pcm, { speech });
    time.ms += performance.now() - started;
    time.minutes += clip.pcm.length / 32_000 / 60;
    const found = new Set(labels.filter((l) => l >= 0)).size;
    const capped = new Set(diarizeFrames(clip.pcm, { speech, maxSpeakers: clip.speakers }).filter((l) => l >= 0)).size;
    const der = clip.turns ? diarizationErrorRate(clip.turns, turnsFromFrames(labels, FRAME_MS), { collarSeconds: 0.25 }).der : undefined;
    const t = tally[clip.split];
    t.all++;
    if (found === clip.speakers) t.right++;
    if (der !== undefined && clip.speakers > 1) t.der.push(der);
    rows.push({
      name: `${clip.name} (${clip.split})`,
      value: `${String(clip.speakers).padEnd(5)} ${String(found).padEnd(6)} ${(der === undefined ? 'n/a' : pct(der)).padEnd(19)} ${capped}`,
    });
  }
  for (const split of ['tune', 'held out'] as const) {
    const t = tally[split];
    const meanDer = t.der.length ? t.der.reduce((a, b) => a + b, 0) / t.der.length : NaN;
    rows.push({
      name: `${split}: count right`,
      value: `${t.right}/${t.all} (${pct(t.right / Math.max(1, t.all))}, goal ≥ 80 %); mean DER on multi-speaker clips ${pct(meanDer)} (goal ≤ 25 %), worst ${pct(Math.max(...t.der))}`,
    });
  }
  const all = { right: tally.tune.right + tally['held out'].right, all: tally.tune.all + tally['held out'].all };
  rows.push({ name: 'all clips: count right', value: `${all.right}/${all.all} (${pct(all.right / all.all)})` });
  rows.push({
    name: 'clustering time (features and clusters, not Silero VAD)',
    value: `${(time.ms / time.minutes).toFixed(0)} ms per minute of audio, ${(time.ms / 1000).toFixed(1)} s over ${time.minutes.toFixed(1)} min`,
  });
  if (!fs.existsSync('/usr/bin/flite')) rows.push({ name: 'generated meetings', value: 'not measured: flite is not installed (apt-get install flite)' });
  return rows;
}
