import { contentStems, shareFound } from '../content-words.ts';

/**
 * Whether a later meeting talked about an open action item again: a segment that holds most of
 * the item's content words. "Most" is three in four, measured on the hand-written cases in
 * follow-up-match.test.ts: every mention there covers ≥ 0.75 of its item but one (0.67), and every
 * look-alike (another object of the same verb, another plan of the same project) covers ≤ 0.67. A
 * false "done or slipped?" costs the person more than a missed one, so the bar sits above 0.67.
 */
export const MENTION_SHARE = 0.75;
/** An item of one content word ("Call") would be found in any segment that says it. */
export const MIN_STEMS_FOUND = 2;

export type OpenItem = { id: string; text: string; dueText: string | null };
export type SpokenSegment = { id: string; startMs: number; text: string };
export type FollowUp = { itemId: string; segmentId: string; startMs: number };

/** The item's content stems, without its due words: a later meeting does not repeat "by Friday". */
export function itemStems(item: Pick<OpenItem, 'text' | 'dueText'>): Set<string> {
  const stems = contentStems(item.text);
  if (item.dueText) for (const stem of contentStems(item.dueText)) stems.delete(stem);
  return stems;
}

/** How much of the item a segment says: the share of its stems found, and how many. */
export function mentionScore(item: Set<string>, segment: Set<string>): { share: number; found: number } {
  return { share: shareFound(item, segment), found: [...item].filter((stem) => segment.has(stem)).length };
}

export const isMention = (score: { share: number; found: number }): boolean => score.share >= MENTION_SHARE && score.found >= MIN_STEMS_FOUND;

/** For each item, the segment that talks about it best (the earliest of equals), when one does. */
export function findFollowUps(items: OpenItem[], segments: SpokenSegment[]): FollowUp[] {
  const spoken = segments.map((segment) => ({ segment, stems: contentStems(segment.text) }));
  const followUps: FollowUp[] = [];
  for (const item of items) {
    const stems = itemStems(item);
    let best: { segment: SpokenSegment; share: number } | undefined;
    for (const { segment, stems: said } of spoken) {
      const score = mentionScore(stems, said);
      if (!isMention(score)) continue;
      if (!best || score.share > best.share || (score.share === best.share && segment.startMs < best.segment.startMs)) best = { segment, share: score.share };
    }
    if (best) followUps.push({ itemId: item.id, segmentId: best.segment.id, startMs: best.segment.startMs });
  }
  return followUps;
}
