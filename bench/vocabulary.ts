import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '#server/config.ts';
import type { RecognizedSegment } from '#server/features/transcription/engines/engine.ts';
import { createEngineRegistry } from '#server/features/transcription/engines/select-engine.ts';
import { postProcessSegments } from '#server/features/transcription/post-process.ts';
import { correctSegments } from '#server/lib/vocabulary-corrections.ts';
import { normalizeWords, wordErrorRate } from '#server/features/transcription/word-error-rate.ts';
import { decodeToPcm16k, type Pcm16k } from '#server/lib/ffmpeg.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import type { Row } from './lib/report.ts';

/**
 * Custom vocabulary: word error on the vocabulary's own words, per available engine, without the
 * vocabulary and with it (given to the engine where it takes it, then the corrections pass). The
 * clips: LibriSpeech's "Mister Quilter" (real speech) and sentences full of names and product
 * terms spoken by Debian flite's voices (made here, when flite is installed). Vocabulary-word error:
 * for each term, the occurrences the reference has that the transcript lacks, plus those it has
 * that the reference lacks, over the reference's occurrences (case and punctuation aside).
 */
type Clip = { name: string; pcm: Pcm16k; text: string; vocabulary: string[] };

const FLITE_SENTENCES: ReadonlyArray<readonly [voice: string, text: string]> = [
  ['slt', 'please ask anika okafor to review the parley release notes'],
  ['awb', 'the kubernetes cluster runs the new grafana dashboards'],
  ['kal16', 'priya banerjee will demo zendesk and parley on friday'],
  ['slt', 'okafor said the postgres upgrade is done'],
  ['awb', 'we moved the jenkins jobs to kubernetes yesterday'],
  ['kal16', 'send the grafana link to priya banerjee before the demo'],
];
const FLITE_VOCABULARY = ['Anika Okafor', 'Okafor', 'Parley', 'Kubernetes', 'Grafana', 'Priya Banerjee', 'Banerjee', 'Zendesk', 'Postgres', 'Jenkins'];

function fliteClip(scratch: string): Clip | undefined {
  if (!fs.existsSync('/usr/bin/flite')) return undefined;
  const pieces: Buffer[] = [];
  FLITE_SENTENCES.forEach(([voice, text], i) => {
    const wav = path.join(scratch, `vocabulary-${i}.wav`);
    execFileSync('flite', ['-voice', voice, '-t', text, '-o', wav]);
    pieces.push(execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-i', wav, '-ac', '1', '-ar', '16000', '-f', 's16le', '-'], { maxBuffer: 64 << 20 }));
    pieces.push(Buffer.alloc(16_000)); // half a second between sentences
  });
  return {
    name: 'flite names and products (generated)',
    pcm: Buffer.concat(pieces),
    text: FLITE_SENTENCES.map(([, t]) => t).join(' '),
    vocabulary: FLITE_VOCABULARY,
  };
}

/** Occurrences of each term (as a run of normalised words) in a text, the longest terms taken first so "Okafor" inside "Anika Okafor" counts once. */
function termCounts(text: string, terms: readonly string[]): Map<string, number> {
  const words = normalizeWords(text);
  const taken = new Array<boolean>(words.length).fill(false);
  const counts = new Map<string, number>();
  for (const term of [...terms].sort((a, b) => b.split(' ').length - a.split(' ').length)) {
    const parts = normalizeWords(term);
    let n = 0;
    for (let i = 0; i + parts.length <= words.length; i++) {
      if (parts.every((p, j) => words[i + j] === p && !taken[i + j])) {
        n++;
        for (let j = 0; j < parts.length; j++) taken[i + j] = true;
      }
    }
    counts.set(term, n);
  }
  return counts;
}

/** The vocabulary-word error of `hypothesis` against `reference`, and the occurrences it is out of. */
export function vocabularyWordError(reference: string, hypothesis: string, terms: readonly string[]): { error: number; occurrences: number } {
  const want = termCounts(reference, terms);
  const got = termCounts(hypothesis, terms);
  let occurrences = 0;
  let errors = 0;
  for (const term of terms) {
    const r = want.get(term) ?? 0;
    const h = got.get(term) ?? 0;
    occurrences += r;
    errors += Math.abs(r - h);
  }
  return { error: occurrences === 0 ? 0 : errors / occurrences, occurrences };
}

const pct = (value: number) => `${(value * 100).toFixed(1)} %`;
const textOf = (segments: RecognizedSegment[]) => segments.map((s) => s.text).join(' ');

export async function benchVocabulary(): Promise<{ title: string; rows: Row[] }[]> {
  const config = loadConfig({ ...process.env, DATA_DIR: process.env.DATA_DIR ?? 'data' });
  const registry = createEngineRegistry(config);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-vocabulary-'));
  try {
    const quilter = {
      name: 'librispeech_mr_quilter.wav (real speech)',
      pcm: await decodeToPcm16k(path.join(sharedAudioDir(), 'librispeech_mr_quilter.wav')),
      text: 'Mister Quilter is the apostle of the middle classes and we are glad to welcome his gospel.',
      vocabulary: ['Quilter'],
    };
    const flite = fliteClip(scratch);
    const clips: Clip[] = [quilter, ...(flite ? [flite] : [])];
    const sections: { title: string; rows: Row[] }[] = [];
    for (const engine of registry.engines) {
      const availability = await engine.checkAvailability();
      if (!availability.available) {
        sections.push({ title: `Custom vocabulary: ${engine.name}`, rows: [{ name: 'skipped', value: availability.reason }] });
        continue;
      }
      const rows: Row[] = [{ name: 'clip (vocabulary occurrences)', value: 'vocab-word error without → with;  WER without → with' }];
      const totals = { occurrences: 0, without: 0, with: 0 };
      for (const clip of clips) {
        const without = postProcessSegments(
          (await engine.transcribe(clip.pcm)).map((s) => ({ ...s, speaker: 0 })),
          { punctuation: true, fillerWordRemoval: false },
        );
        const given = postProcessSegments(
          (await engine.transcribe(clip.pcm, { vocabulary: clip.vocabulary })).map((s) => ({ ...s, speaker: 0 })),
          { punctuation: true, fillerWordRemoval: false },
        );
        const corrected = correctSegments(given, clip.vocabulary);
        const before = vocabularyWordError(clip.text, textOf(without), clip.vocabulary);
        const after = vocabularyWordError(clip.text, textOf(corrected), clip.vocabulary);
        totals.occurrences += before.occurrences;
        totals.without += before.error * before.occurrences;
        totals.with += after.error * after.occurrences;
        rows.push({
          name: `${clip.name} (${before.occurrences})`,
          value: `${pct(before.error)} → ${pct(after.error)};  ${pct(wordErrorRate(clip.text, textOf(without)))} → ${pct(wordErrorRate(clip.text, textOf(corrected)))}`,
          note: `${corrected.flatMap((s) => s.corrections).length} corrections: ${corrected
            .flatMap((s) => s.corrections)
            .map((c) => `“${c.original}” → ${c.corrected}`)
            .join(', ')}`,
        });
      }
      rows.push({ name: `all clips (${totals.occurrences})`, value: `${pct(totals.without / totals.occurrences)} → ${pct(totals.with / totals.occurrences)}` });
      sections.push({
        title: `Custom vocabulary: ${engine.name} (${engine.name === 'pocketsphinx' ? 'corrections pass only: it takes no vocabulary' : 'engine given the terms, then corrections'})`,
        rows,
      });
    }
    return sections;
  } finally {
    await registry.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
