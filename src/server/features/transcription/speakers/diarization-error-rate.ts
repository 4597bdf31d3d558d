/**
 * Diarization error rate, the standard measure of "who spoke when": the share of reference speech
 * time that is missed, falsely detected or given to the wrong speaker, under the best one-to-one
 * mapping of hypothesis speakers to reference speakers. Scored on 10 ms steps; overlapping reference
 * speech counts once per speaker, as in NIST's md-eval.
 */
export type Turn = { startMs: number; endMs: number; speaker: string };
export type DerResult = { der: number; missed: number; falseAlarm: number; confusion: number; referenceMs: number };

const STEP_MS = 10;

/** `SPEAKER <file> <channel> <start> <duration> <NA> <NA> <speaker> <NA> <NA>` lines. */
export function parseRttm(text: string): Turn[] {
  return text
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f[0] === 'SPEAKER' && f.length >= 8)
    .map((f) => ({ startMs: Math.round(Number(f[3]) * 1000), endMs: Math.round((Number(f[3]) + Number(f[4])) * 1000), speaker: f[7]! }));
}

function activeAt(turns: Turn[], steps: number): Array<Set<string>> {
  const active = Array.from({ length: steps }, () => new Set<string>());
  for (const t of turns) for (let i = Math.floor(t.startMs / STEP_MS); i < Math.min(steps, Math.ceil(t.endMs / STEP_MS)); i++) active[i]!.add(t.speaker);
  return active;
}

export function diarizationErrorRate(reference: Turn[], hypothesis: Turn[]): DerResult {
  const endMs = Math.max(0, ...reference.map((t) => t.endMs), ...hypothesis.map((t) => t.endMs));
  const steps = Math.ceil(endMs / STEP_MS);
  const ref = activeAt(reference, steps);
  const hyp = activeAt(hypothesis, steps);
  const refSpeakers = [...new Set(reference.map((t) => t.speaker))];
  const hypSpeakers = [...new Set(hypothesis.map((t) => t.speaker))];

  // Overlap time of each (hypothesis, reference) pair: the mapping maximises the matched time.
  const overlap = hypSpeakers.map((h) => refSpeakers.map((r) => ref.reduce((n, set, i) => n + (set.has(r) && hyp[i]!.has(h) ? 1 : 0), 0)));
  const mapping = bestMapping(overlap);

  let referenceSteps = 0;
  let missed = 0;
  let falseAlarm = 0;
  let confusion = 0;
  for (let i = 0; i < steps; i++) {
    const r = ref[i]!.size;
    const h = hyp[i]!.size;
    referenceSteps += r;
    missed += Math.max(0, r - h);
    falseAlarm += Math.max(0, h - r);
    let correct = 0;
    hypSpeakers.forEach((speaker, hi) => {
      const mapped = mapping[hi];
      if (hyp[i]!.has(speaker) && mapped !== undefined && mapped >= 0 && ref[i]!.has(refSpeakers[mapped]!)) correct++;
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

/** The one-to-one assignment (hypothesis → reference index, -1 for none) with the most overlap: exhaustive, as speaker counts are small. */
function bestMapping(overlap: number[][]): number[] {
  const hypCount = overlap.length;
  const refCount = overlap[0]?.length ?? 0;
  let best = { score: -1, mapping: new Array<number>(hypCount).fill(-1) };
  const current = new Array<number>(hypCount).fill(-1);
  const used = new Array<boolean>(refCount).fill(false);
  const search = (h: number, score: number) => {
    if (h === hypCount) {
      if (score > best.score) best = { score, mapping: [...current] };
      return;
    }
    for (let r = -1; r < refCount; r++) {
      if (r >= 0 && used[r]) continue;
      current[h] = r;
      if (r >= 0) used[r] = true;
      search(h + 1, score + (r >= 0 ? overlap[h]![r]! : 0));
      if (r >= 0) used[r] = false;
    }
    current[h] = -1;
  };
  search(0, 0);
  return best.mapping;
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
