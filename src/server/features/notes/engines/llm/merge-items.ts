import type { CitedSentence, FinalNotes, PartNotes } from './answer-schemas.ts';

const key = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Items saying the same words become one citing the references of all (first wording kept). */
function dedupe<T extends { refs: string[] }>(items: T[], textOf: (item: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const item of items) {
    const k = key(textOf(item));
    const seen = byKey.get(k);
    if (seen) byKey.set(k, { ...seen, refs: [...new Set([...seen.refs, ...item.refs])] });
    else byKey.set(k, item);
  }
  return [...byKey.values()];
}

/** The exact duplicates a model's merge left behind (or a merge done without a model) folded away. */
export function dedupeNotes<T extends Omit<PartNotes, 'summaryPoints'>>(notes: T): T {
  return {
    ...notes,
    keyPoints: dedupe(notes.keyPoints, (k) => k.text),
    topics: dedupe(notes.topics, (t) => t.title),
    actionItems: dedupe(notes.actionItems, (a) => a.text),
    decisions: dedupe(notes.decisions, (d) => d.text),
  };
}

/** Parts joined without a model, when merging with one failed: nothing is lost, duplicates folded. */
export function concatParts(parts: PartNotes[]): PartNotes {
  return dedupeNotes({
    summaryPoints: parts.flatMap((p) => p.summaryPoints),
    keyPoints: parts.flatMap((p) => p.keyPoints),
    topics: parts.flatMap((p) => p.topics),
    actionItems: parts.flatMap((p) => p.actionItems),
    decisions: parts.flatMap((p) => p.decisions),
  });
}

/**
 * A summary from the parts' own sentences, each with its refs, taken evenly across the meeting up
 * to 150 words, in meeting order.
 */
export function summaryFromPoints(points: CitedSentence[], maxWords = 150): CitedSentence[] {
  const chosen = new Set<CitedSentence>();
  let words = 0;
  // Round-robin by rank (every part's first sentence, then every part's second…) would need the
  // parts; taking every other sentence first spreads a long list across the whole meeting.
  const order = [...points.filter((_, i) => i % 2 === 0), ...points.filter((_, i) => i % 2 === 1)];
  for (const point of order) {
    const count = point.text.split(/\s+/).filter(Boolean).length;
    if (words + count > maxWords) continue;
    chosen.add(point);
    words += count;
  }
  if (chosen.size === 0) return points.slice(0, 1); // one long sentence is still better than none
  return points.filter((p) => chosen.has(p));
}

export function finalFromPart(part: PartNotes): FinalNotes {
  const { summaryPoints, ...items } = part;
  return { summary: summaryFromPoints(summaryPoints), ...items };
}
