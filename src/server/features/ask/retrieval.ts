import { eng as englishStopWords } from 'stopword';

/**
 * Ask's retrieval pieces that need no database: a question's search words, reciprocal rank fusion,
 * and a bounded "best n" keeper for the embeddings scan.
 */

/** The few words of spoken questions stopword's English list lacks. */
const QUESTION_WORDS = ['did', 'does', 'discuss', 'discussed', 'discussion', 'summarize', 'summarise', 'think', 'thought', 'say', 'said', 'talk', 'talked'];
const STOP = new Set([...englishStopWords, ...QUESTION_WORDS]);

/**
 * A question as words for the search index: letters and digits (never query syntax), stop words and
 * question verbs left out ("what did … discuss about"), at most 24. A question of nothing but stop
 * words keeps them: a search for something beats none.
 */
export function questionWords(question: string): string[] {
  const all = (
    question
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).filter((w) => w.length > 1 || /\p{N}/u.test(w));
  const content = all.filter((w) => !STOP.has(w));
  return [...new Set(content.length > 0 ? content : all)].slice(0, 24);
}

/** Reciprocal rank fusion (Cormack et al. 2009): each list adds 1 / (k + rank) to an item's score; k = 60 as in the paper. */
export function reciprocalRankFusion(lists: string[][], k = 60): string[] {
  const scores = new Map<string, number>();
  for (const list of lists) list.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + rank + 1)));
  const firstSeen = [...scores.keys()];
  return firstSeen.sort((a, b) => scores.get(b)! - scores.get(a)! || firstSeen.indexOf(a) - firstSeen.indexOf(b));
}

/** Keeps the `size` highest-scored items offered: memory stays at `size` however many are offered. */
export function createTopN<T>(size: number) {
  const items: { item: T; score: number }[] = [];
  return {
    offer(item: T, score: number) {
      if (items.length === size && score <= items[items.length - 1]!.score) return;
      let i = items.length;
      while (i > 0 && items[i - 1]!.score < score) i--;
      items.splice(i, 0, { item, score });
      if (items.length > size) items.pop();
    },
    best: (): T[] => items.map((e) => e.item),
  };
}
