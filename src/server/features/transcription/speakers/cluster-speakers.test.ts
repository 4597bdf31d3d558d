import { describe, expect, it } from 'vitest';
import { capSpeakers, fillPauses, mergeTinyClusters, voicedSpeakers } from './cluster-speakers.ts';
import { FRAME_MS } from './speaker-features.ts';

// The rules that turn the tree's clusters into speakers, on small synthetic voice features: each
// "voice" a point with windows scattered tightly around it (seeded), each window standing for
// 0.75 s of speech, as the clustering's windows do.

const WINDOW_FRAMES = Math.round(750 / FRAME_MS);
let seed = 42;
const noise = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648 - 0.5) * 0.2;

/** `windows` windows around `centre`, labelled `label`. */
function voice(centre: number[], windows: number, label: number) {
  return Array.from({ length: windows }, () => ({ feature: centre.map((v) => v + noise()), label }));
}

function build(...voices: Array<ReturnType<typeof voice>>) {
  const all = voices.flat();
  return { features: all.map((w) => w.feature), labels: all.map((w) => w.label), speech: all.map(() => WINDOW_FRAMES) };
}

const speakersIn = (labels: number[]) => new Set(labels).size;

describe('mergeTinyClusters', () => {
  it('merges a cluster of under a second of speech into its nearest voice, however distinct', () => {
    const { features, labels, speech } = build(voice([0, 0, 0], 20, 0), voice([6, 0, 0], 20, 1), voice([5, 9, 0], 1, 2));
    const merged = mergeTinyClusters(features, speech, labels);
    expect(speakersIn(merged)).toBe(2);
    expect(merged.at(-1)).toBe(merged[20]); // the 0.75 s cluster went to the voice at [6, 0, 0], its nearest
  });

  it('keeps a short cluster (2 s) that lies far from every other voice, and merges one that lies within a voice’s spread', () => {
    const far = build(voice([0, 0, 0], 20, 0), voice([6, 0, 0], 20, 1), voice([0, 12, 0], 3, 2));
    expect(speakersIn(mergeTinyClusters(far.features, far.speech, far.labels))).toBe(3);
    const near = build(voice([0, 0, 0], 20, 0), voice([6, 0, 0], 20, 1), voice([0.1, 0.05, 0], 3, 2));
    const merged = mergeTinyClusters(near.features, near.speech, near.labels);
    expect(speakersIn(merged)).toBe(2);
    expect(merged.at(-1)).toBe(merged[0]);
  });

  it('keeps a cluster of 4 s of speech or more, however near, for the tree’s own test of two voices to judge', () => {
    const { features, labels, speech } = build(voice([0, 0, 0], 20, 0), voice([0.3, 0, 0], 6, 1));
    expect(speakersIn(mergeTinyClusters(features, speech, labels))).toBe(2);
  });

  it('on a long recording, merges a distinct short cluster that holds under 2 % of the speech', () => {
    // 3 s of a distinct voice among 3 minutes of two others: a cough or a laugh, not a person.
    const { features, labels, speech } = build(voice([0, 0, 0], 120, 0), voice([6, 0, 0], 120, 1), voice([0, 12, 0], 4, 2));
    expect(speakersIn(mergeTinyClusters(features, speech, labels))).toBe(2);
  });
});

describe('capSpeakers (the meeting’s attendees, when known)', () => {
  const three = () => build(voice([0, 0, 0], 30, 0), voice([6, 0, 0], 20, 1), voice([7, 2, 0], 10, 2));

  it('leaves as many speakers as there may be alone', () => {
    const { features, labels, speech } = three();
    expect(capSpeakers(features, speech, labels, 3)).toEqual(labels);
    expect(capSpeakers(features, speech, labels, 8)).toEqual(labels);
  });

  it('merges the speaker with the least speech into its nearest until the cap holds', () => {
    const { features, labels, speech } = three();
    const two = capSpeakers(features, speech, labels, 2);
    expect(speakersIn(two)).toBe(2);
    expect(two.slice(50)).toEqual(new Array(10).fill(two[30])); // the third voice joined the second, its nearest
    expect(two[0]).not.toBe(two[30]);
    expect(speakersIn(capSpeakers(features, speech, labels, 1))).toBe(1);
  });

  it('merges a cluster that won no frame before any voice that did, whatever its speech', () => {
    const { features, labels, speech } = three();
    // Cluster 1 (20 windows) was outvoted everywhere; cluster 2 (10 windows) was heard.
    const capped = capSpeakers(features, speech, labels, 2, new Set([0, 2]));
    expect(speakersIn(capped)).toBe(2);
    expect(capped[30]).toBe(capped[50]); // cluster 1 went into cluster 2, its nearest heard one
    expect(capped[0]).not.toBe(capped[50]);
  });
});

/** Frame labels (16 ms frames) from [speaker, milliseconds] runs; speaker -1 is nobody. */
function frames(...runs: Array<[speaker: number, ms: number]>): Int16Array {
  return Int16Array.from(runs.flatMap(([speaker, ms]) => new Array<number>(Math.round(ms / FRAME_MS)).fill(speaker)));
}

describe('voicedSpeakers (who won enough speech in the vote to be a person)', () => {
  it('drops a speaker left with under a second of speech, however short the recording', () => {
    expect([...voicedSpeakers(frames([0, 8000], [1, 600], [0, 4000]))]).toEqual([0]);
    expect([...voicedSpeakers(frames([0, 8000], [1, 1200], [0, 4000]))].sort()).toEqual([0, 1]);
  });

  it('drops a speaker of 1 to 4 s holding under 2 % of a long recording’s speech, and keeps one of 4 s or more', () => {
    expect([...voicedSpeakers(frames([0, 100_000], [1, 3000], [2, 100_000]))].sort()).toEqual([0, 2]);
    expect([...voicedSpeakers(frames([0, 300_000], [1, 4500], [2, 300_000]))].sort()).toEqual([0, 1, 2]);
  });
});

describe('fillPauses', () => {
  it('gives a pause of up to half a second between one speaker’s words to that speaker', () => {
    const labels = frames([0, 1000], [-1, 480], [0, 1000]);
    fillPauses(labels);
    expect([...labels]).toEqual(new Array<number>(labels.length).fill(0));
  });

  it('leaves longer pauses, and pauses between two speakers, to nobody', () => {
    const long = frames([0, 1000], [-1, 800], [0, 1000]);
    const change = frames([0, 1000], [-1, 300], [1, 1000]);
    const [longBefore, changeBefore] = [[...long], [...change]];
    fillPauses(long);
    fillPauses(change);
    expect([...long]).toEqual(longBefore);
    expect([...change]).toEqual(changeBefore);
  });
});
