/**
 * Pk (Beeferman, Berger and Lafferty, 1999): the share of position pairs k apart that the
 * hypothesis puts in the same segment when the reference does not, or the other way round. Lower is
 * better; 0 is a perfect segmentation. Both segmentations are given as a segment number per position.
 */
export function pk(reference: readonly number[], hypothesis: readonly number[], k: number): number {
  if (reference.length !== hypothesis.length) throw new Error('pk: the segmentations cover different lengths');
  const pairs = reference.length - k;
  if (pairs <= 0) return 0;
  let disagreements = 0;
  for (let i = 0; i < pairs; i++) {
    const sameInReference = reference[i] === reference[i + k];
    const sameInHypothesis = hypothesis[i] === hypothesis[i + k];
    if (sameInReference !== sameInHypothesis) disagreements++;
  }
  return disagreements / pairs;
}

/** Labels as segment numbers: a new number wherever the label changes, so a topic that returns counts again. */
export function segmentNumbers(labels: readonly number[]): number[] {
  let segment = 0;
  return labels.map((label, i) => (i > 0 && label !== labels[i - 1] ? ++segment : segment));
}

/** `count` segments of (nearly) equal length over `length` positions: the evenly spaced baseline. */
export function evenSegments(length: number, count: number): number[] {
  return Array.from({ length }, (_, i) => Math.min(count - 1, Math.floor((i * count) / length)));
}
