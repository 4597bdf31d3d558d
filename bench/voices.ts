import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseRttm, type Turn } from '#server/features/transcription/speakers/diarization-error-rate.ts';
import { voiceComparison } from '#server/features/transcription/speakers/compare-voices.ts';
import { voiceEmbedding } from '#server/features/transcription/speakers/voice-embedding.ts';
import { MATCH_THRESHOLDS } from '#server/features/voice-profiles/voice-profiles.service.ts';
import { decodeToPcm16k } from '#server/lib/ffmpeg.ts';
import { longFliteMeeting } from '#tests/support/flite-meeting.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import type { Row } from './lib/report.ts';

/**
 * Voices across meetings (issue 32): a voice enrolled from one recording, looked for in another.
 * Each enrolled voice is a profile (the built-in features' embedding of its turns); each speaker of
 * the later recording takes its most similar profile (the built-in path's similarity, as the
 * voice-profiles feature matches), named at once above MATCH_THRESHOLDS' `name`, suggested ("Is
 * this …?") above its `suggest`, left alone below. Strangers (voices with no profile) must never be
 * named. The channel checks meet every voice again through another microphone (12 dB quieter, a
 * 150 Hz high-pass, a 300–3400 Hz phone band, the bass 13 dB up), the profiles made from the plain
 * recordings: a voice must not be told by how loud its recording is, and no other voice may be named
 * because the microphone changed.
 *
 * Tune: meetings spoken by flite's voices (enrolled in one, met in another with new words and two
 * strangers) and the pyannote sample's two people (first half of each one's turns enrolled, second
 * half met: two real voices on one microphone, the hardest case for a false match). Held out, never
 * looked at while setting the thresholds: LibriVox's reader (first half enrolled, second met) among
 * the other real clips' speakers as strangers, all met against the tune trials' profiles too.
 */
type Voice = { who: string; embedding: Float32Array };
const THRESHOLDS = MATCH_THRESHOLDS['built-in'];
const { similarity } = voiceComparison('built-in');
/** `through`: the met voices again, their recording heard through each of CHANNELS. */
type Trial = { enrolled: Voice[]; met: Voice[]; through: Voice[][] };

/** The recording at a level `db` lower. */
function quieter(pcm: Buffer, db = 12): Buffer {
  const gain = 10 ** (-db / 20);
  const out = Buffer.alloc(pcm.length);
  for (let i = 0; i < pcm.length; i += 2) out.writeInt16LE(Math.round(pcm.readInt16LE(i) * gain), i);
  return out;
}

/** The recording through ffmpeg's audio `filter` (a microphone's response). */
function filtered(pcm: Buffer, filter: string): Buffer {
  const raw = ['-f', 's16le', '-ar', '16000', '-ac', '1'];
  return execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', ...raw, '-i', 'pipe:0', '-af', filter, ...raw, 'pipe:1'], {
    input: pcm,
    maxBuffer: 1 << 30,
  });
}

/** Other microphones than the enrolment's, as a later meeting may hear the same voice. */
const CHANNELS: ReadonlyArray<{ name: string; hear: (pcm: Buffer) => Buffer }> = [
  { name: '12 dB quieter', hear: (pcm) => quieter(pcm) },
  { name: '150 Hz high-pass', hear: (pcm) => filtered(pcm, 'highpass=f=150') },
  { name: 'phone band 300-3400 Hz', hear: (pcm) => filtered(pcm, 'highpass=f=300,lowpass=f=3400') },
  { name: 'bass +13 dB', hear: (pcm) => filtered(pcm, 'bass=g=13') },
];

function voicesOf(pcm: Buffer, turns: Turn[], only?: (turn: Turn, index: number, mine: Turn[]) => boolean): Voice[] {
  const out: Voice[] = [];
  for (const who of new Set(turns.map((t) => t.speaker))) {
    const mine = turns.filter((t) => t.speaker === who);
    const embedding = voiceEmbedding(
      pcm,
      mine.filter((t, i) => !only || only(t, i, mine)),
    );
    if (embedding) out.push({ who, embedding });
  }
  return out;
}

/** The voices of a later recording as met, and through each of CHANNELS. */
function meet(pcm: Buffer, turns: Turn[], only?: (turn: Turn, index: number, mine: Turn[]) => boolean): Pick<Trial, 'met' | 'through'> {
  return { met: voicesOf(pcm, turns, only), through: CHANNELS.map((c) => voicesOf(c.hear(pcm), turns, only)) };
}

const firstHalf = (_: Turn, i: number, mine: Turn[]) => i < Math.ceil(mine.length / 2);
const secondHalf = (_: Turn, i: number, mine: Turn[]) => i >= Math.ceil(mine.length / 2);

function tuneTrials(): Trial[] {
  const trials: Trial[] = [];
  if (fs.existsSync('/usr/bin/flite')) {
    const enrol = longFliteMeeting({ minutes: 1, seed: 31, voices: ['kal16', 'slt', 'awb'] });
    const later = longFliteMeeting({ minutes: 1.5, seed: 41, voices: ['rms', 'kal16', 'slt', 'kal', 'awb'] });
    trials.push({ enrolled: voicesOf(enrol.pcm, enrol.turns), ...meet(later.pcm, later.turns) });
  }
  return trials;
}

async function realTrials(): Promise<{ tune: Trial; heldOut: Trial }> {
  const dir = sharedAudioDir();
  const pyannote = await decodeToPcm16k(path.join(dir, 'pyannote_sample_2spk_30s.wav'));
  const pyannoteTurns = parseRttm(fs.readFileSync(path.join(dir, 'pyannote_sample_2spk_30s.rttm'), 'utf8'));
  const whole = async (file: string, who: string) => {
    const pcm = await decodeToPcm16k(path.join(dir, file));
    return meet(pcm, [{ startMs: 0, endMs: pcm.length / 32, speaker: who }]);
  };
  const librivox = await decodeToPcm16k(path.join(dir, 'librivox_ss_5utt.wav'));
  const halves = (ms: number): Turn[] => [
    { startMs: 0, endMs: ms / 2, speaker: 'librivox reader' },
    { startMs: ms / 2, endMs: ms, speaker: 'librivox reader' },
  ];
  const librivoxTurns = halves(librivox.length / 32);
  const strangers = await Promise.all<Pick<Trial, 'met' | 'through'>>(
    [
      ['jfk.wav', 'jfk'],
      ['librispeech_mr_quilter.wav', 'librispeech reader'],
      ['fw_left.wav', 'fw_left reader'],
      ['fw_right.wav', 'fw_right reader'],
      ['leopard_3spk.wav', 'leopard (3 people)'],
    ].map(([file, who]) => whole(file!, who!)),
  );
  const reader = meet(librivox, librivoxTurns, secondHalf);
  return {
    tune: { enrolled: voicesOf(pyannote, pyannoteTurns, firstHalf), ...meet(pyannote, pyannoteTurns, secondHalf) },
    heldOut: {
      enrolled: voicesOf(librivox, librivoxTurns, firstHalf),
      met: [...reader.met, ...strangers.flatMap((s) => s.met)],
      through: CHANNELS.map((_, c) => [...reader.through[c]!, ...strangers.flatMap((s) => s.through[c]!)]),
    },
  };
}

type Tally = {
  known: number;
  strangers: number;
  named: number;
  namedRight: number;
  suggested: number;
  suggestedRight: number;
  falseNamed: number;
  /** Each voice named after someone else: "voice as person (similarity)". */
  falseNames: string[];
  /** The least similar known voice to its own profile; the most similar stranger to any profile, and any voice to another person's profile. */
  weakestKnown: number;
  closestStranger: number;
  closestOther: number;
};

function score(trials: Trial[]): { tally: Tally; rows: Row[] } {
  const tally: Tally = {
    known: 0,
    strangers: 0,
    named: 0,
    namedRight: 0,
    suggested: 0,
    suggestedRight: 0,
    falseNamed: 0,
    falseNames: [],
    weakestKnown: Infinity,
    closestStranger: -Infinity,
    closestOther: -Infinity,
  };
  const rows: Row[] = [];
  for (const trial of trials) {
    for (const voice of trial.met) {
      const known = trial.enrolled.some((p) => p.who === voice.who);
      if (known) tally.known++;
      else tally.strangers++;
      const ranked = trial.enrolled
        .map((p) => ({ who: p.who, similarity: similarity(p.embedding, voice.embedding) }))
        .sort((a, b) => b.similarity - a.similarity);
      const nearest = ranked[0];
      if (!nearest) continue;
      const own = ranked.find((p) => p.who === voice.who);
      if (own) tally.weakestKnown = Math.min(tally.weakestKnown, own.similarity);
      else tally.closestStranger = Math.max(tally.closestStranger, nearest.similarity);
      // Another person's profile: what would name this voice if its own were not there.
      const other = ranked.find((p) => p.who !== voice.who);
      if (other) tally.closestOther = Math.max(tally.closestOther, other.similarity);
      const right = nearest.who === voice.who;
      let outcome = 'left unnamed';
      if (nearest.similarity >= THRESHOLDS.name) {
        tally.named++;
        if (right) tally.namedRight++;
        else {
          tally.falseNamed++;
          tally.falseNames.push(`${voice.who} as ${nearest.who} (${nearest.similarity.toFixed(3)})`);
        }
        outcome = `named ${nearest.who}`;
      } else if (nearest.similarity >= THRESHOLDS.suggest) {
        tally.suggested++;
        if (right) tally.suggestedRight++;
        outcome = `suggested ${nearest.who}`;
      }
      rows.push({ name: `  ${voice.who}${known ? '' : ' (stranger)'}`, value: `nearest ${nearest.who} at ${nearest.similarity.toFixed(3)}: ${outcome}` });
    }
  }
  return { tally, rows };
}

const ratio = (a: number, b: number) => (b === 0 ? 'n/a' : `${a}/${b} = ${(a / b).toFixed(2)}`);

export async function benchVoices(): Promise<Row[]> {
  const real = await realTrials();
  const rows: Row[] = [
    { name: 'thresholds', value: `named at ${THRESHOLDS.name}, suggested at ${THRESHOLDS.suggest} (Bhattacharyya coefficient of the built-in features)` },
  ];
  const tune = [...tuneTrials(), real.tune];
  // The held-out voices are met against every profile: the tune trials' people are strangers to them.
  const heldOut: Trial = { ...real.heldOut, enrolled: [...real.heldOut.enrolled, ...tune.flatMap((t) => t.enrolled)] };
  for (const [split, trials] of [
    ['tune', tune],
    ['held out', [heldOut]],
  ] as const) {
    for (const channel of [undefined, ...CHANNELS.keys()]) {
      const name = channel === undefined ? split : `${split}, ${CHANNELS[channel]!.name}`;
      const { tally, rows: detail } = score(trials.map((t) => ({ ...t, met: channel === undefined ? t.met : t.through[channel]! })));
      const left = tally.known + tally.strangers - tally.named - tally.suggested;
      rows.push({ name, value: `${tally.known} known voices met, ${tally.strangers} strangers` });
      // Each voice's outcome for the recordings as they are; through another microphone, the counts and every false name.
      if (channel === undefined) rows.push(...detail);
      rows.push({
        name: `${name}: named`,
        value:
          `precision ${ratio(tally.namedRight, tally.named)} (goal ≥ 0.95), recall ${ratio(tally.namedRight, tally.known)} (goal ≥ 0.8), ` +
          `false matches ${tally.falseNamed} (strangers and wrong people named; goal 0)${tally.falseNames.length > 0 ? `: ${tally.falseNames.join(', ')}` : ''}; ` +
          `suggested ${tally.suggested} (${tally.suggestedRight} right), left alone ${left}`,
      });
      if (tally.known > 0)
        rows.push({
          name: `${name}: margin`,
          value:
            `weakest known voice ${tally.weakestKnown.toFixed(3)}; closest stranger ${tally.strangers > 0 ? tally.closestStranger.toFixed(3) : 'n/a'}, ` +
            `closest other person (a stranger, or a voice to another's profile) ${tally.closestOther.toFixed(3)}: margin ${(tally.weakestKnown - tally.closestOther).toFixed(3)}`,
        });
    }
  }
  if (!fs.existsSync('/usr/bin/flite')) rows.push({ name: 'flite meetings', value: 'not measured: flite is not installed (apt-get install flite)' });
  return rows;
}
