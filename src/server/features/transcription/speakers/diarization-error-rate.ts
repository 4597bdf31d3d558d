import { linearSumAssignment } from 'linear-sum-assignment';

/**
 * Diarization error rate, the standard measure of "who spoke when": the share of reference speech
 * time that is missed, falsely detected or given to the wrong speaker, under the best one-to-one
 * mapping of hypothesis speakers to reference speakers. Scored on 10 ms steps; overlapping reference
 * speech counts once per speaker, as in NIST's md-eval, optionally with its no-score collar.
 */
export type Turn = { startMs: number; endMs: number; speaker: string };
export type DerResult = { der: number; missed: number; falseAlarm: number; confusion: number; referenceMs: number };

const STEP_MS = 10;

/** `SPEAKER <file> <channel> <start> <duration> <NA> <NA> <speaker> <NA> <NA>` lines; other line types are skipped. */
export function parseRttm(text: string): Turn[] {
  return text
    .split('\n')
    .map((line, index) => ({ fields: line.trim().split(/\s+/), line: index + 1 }))
    .filter(({ fields }) => fields[0] === 'SPEAKER')
    .map(({ fields, line }) => {
      const start = Number(fields[3]);
      const duration = Number(fields[4]);
      const speaker = fields[7];
      if (!Number.isFinite(start) || !Number.isFinite(duration) || duration < 0 || start < 0 || !speaker) {
        throw new Error(`RTTM line ${line}: expected SPEAKER <file> <channel> <start> <duration> <NA> <NA> <speaker>`);
      }
      return { startMs: Math.round(start * 1000), endMs: Math.round((start + duration) * 1000), speaker };
    });
}

function activeAt(turns: Turn[], steps: number): Array<Set<string>> {
  const active = Array.from({ length: steps }, () => new Set<string>());
  for (const t of turns) for (let i = Math.floor(t.startMs / STEP_MS); i < Math.min(steps, Math.ceil(t.endMs / STEP_MS)); i++) active[i]!.add(t.speaker);
  return active;
}

export type DerOptions = {
  /**
   * Seconds either side of each reference turn boundary left unscored (NIST's usual 0.25 s): where
   * exactly a turn starts or ends is a matter of annotation, not of telling speakers apart.
   */
  collarSeconds?: number;
};

export function diarizationErrorRate(reference: Turn[], hypothesis: Turn[], options: DerOptions = {}): DerResult {
  const endMs = Math.max(0, ...reference.map((t) => t.endMs), ...hypothesis.map((t) => t.endMs));
  const steps = Math.ceil(endMs / STEP_MS);
  const ref = activeAt(reference, steps);
  const hyp = activeAt(hypothesis, steps);
  const scored = scoredSteps(reference, steps, options.collarSeconds ?? 0);
  const refSpeakers = [...new Set(reference.map((t) => t.speaker))];
  const hypSpeakers = [...new Set(hypothesis.map((t) => t.speaker))];

  // Overlap time of each (hypothesis, reference) pair: the mapping maximises the matched time.
  const overlap = hypSpeakers.map((h) => refSpeakers.map((r) => ref.reduce((n, set, i) => n + (scored[i] && set.has(r) && hyp[i]!.has(h) ? 1 : 0), 0)));
  const mapping = bestMapping(overlap);

  let referenceSteps = 0;
  let missed = 0;
  let falseAlarm = 0;
  let confusion = 0;
  for (let i = 0; i < steps; i++) {
    if (!scored[i]) continue;
    const r = ref[i]!.size;
    const h = hyp[i]!.size;
    referenceSteps += r;
    missed += Math.max(0, r - h);
    falseAlarm += Math.max(0, h - r);
    let correct = 0;
    hypSpeakers.forEach((speaker, hi) => {
      const mapped = mapping[hi]!;
      if (mapped >= 0 && hyp[i]!.has(speaker) && ref[i]!.has(refSpeakers[mapped]!)) correct++;
    });
    confusion += Math.min(r, h) - correct;
  }
  const total = referenceSteps * STEP_MS;
  const ms = (n: number) => n * STEP_MS;
  return {
    der: total === 0 ? 0 : (ms(missed) + ms(falseAlarm) + ms(confusion)) / total,
    missed: ms(missed),
    falseAlarm: ms(falseAlarm),
    confusion: ms(confusion),
    referenceMs: total,
  };
}

/** Which 10 ms steps count: all, less the collar around each reference turn's start and end. */
function scoredSteps(reference: Turn[], steps: number, collarSeconds: number): boolean[] {
  const scored = new Array<boolean>(steps).fill(true);
  const collar = Math.round((collarSeconds * 1000) / STEP_MS);
  if (collar <= 0) return scored;
  for (const turn of reference) {
    for (const boundary of [turn.startMs, turn.endMs]) {
      const at = Math.round(boundary / STEP_MS);
      for (let i = Math.max(0, at - collar); i < Math.min(steps, at + collar); i++) scored[i] = false;
    }
  }
  return scored;
}

/**
 * The one-to-one assignment (hypothesis index → reference index, -1 for none) with the most
 * overlap: the Hungarian method (Jonker–Volgenant), so any number of speakers is scored exactly.
 */
function bestMapping(overlap: number[][]): number[] {
  if (overlap.length === 0 || (overlap[0]?.length ?? 0) === 0) return overlap.map(() => -1);
  const { rowAssignments } = linearSumAssignment(overlap, { maximaze: true });
  // A pair that shares no time is no match at all.
  return Array.from(rowAssignments, (r, h) => (r >= 0 && overlap[h]![r]! > 0 ? r : -1));
}

/** Turns from per-frame labels (-1 = silence), for scoring a frame diarization. */
export function turnsFromFrames(labels: Int16Array, frameMs: number): Turn[] {
  const turns: Turn[] = [];
  for (let f = 0; f < labels.length; f++) {
    const speaker = labels[f]!;
    if (speaker < 0) continue;
    const last = turns.at(-1);
    const startMs = Math.round(f * frameMs);
    if (last && last.speaker === String(speaker) && last.endMs >= startMs - frameMs) last.endMs = Math.round((f + 1) * frameMs);
    else turns.push({ startMs, endMs: Math.round((f + 1) * frameMs), speaker: String(speaker) });
  }
  return turns;
}
