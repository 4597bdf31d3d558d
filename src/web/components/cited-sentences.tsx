import type { ReactNode } from 'react';
import type { SummarySentence } from '#shared/contracts/notes.ts';
import { formatClock } from '#web/lib/format.ts';

/**
 * A summary as its sentences, each followed by the time it was said: the sentence stays prose, its
 * time is the citation. What the time does (jump the player, link to the line) is the view's.
 */
export function CitedSentences({ sentences, time }: { sentences: SummarySentence[]; time: (sentence: SummarySentence, clock: string) => ReactNode }) {
  return sentences.map((sentence, i) => (
    <span key={i}>
      {i > 0 && ' '}
      {sentence.text} {time(sentence, formatClock(sentence.startMs / 1000))}
    </span>
  ));
}
