import type { NotesSegment, NotesSpeaker, TopicItem } from '../../notes-types.ts';
import type { SegmentSpan } from './find-topic-spans.ts';
import { nounPhrases } from './key-phrases.ts';
import type { Sentence } from './split-sentences.ts';

/** Segments cited per topic: where its name is said, the first few. */
const MAX_TOPIC_CITATIONS = 5;
/**
 * A name alone ("Jeff Buckley", "San Diego") is said in one stretch and nowhere else, so it scores as
 * a subject would; in meetings it is mostly small talk or an example, so it names a topic only
 * when nothing else does.
 */
const NAMED_WEIGHT = 0.5;
/** "voice recognition" names a subject better than "voice" or "recognition" alone. */
const MULTIWORD_BONUS = 1.5;

type SpanPhrases = {
  span: SegmentSpan;
  counts: Map<string, number>;
  surfaces: Map<string, Map<string, number>>;
  segments: Map<string, number[]>;
  named: Set<string>;
};

const bump = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);

function collectPhrases(span: SegmentSpan, sentences: Sentence[], excluded: ReadonlySet<string>): SpanPhrases {
  const counts = new Map<string, number>();
  const surfaces = new Map<string, Map<string, number>>();
  const segments = new Map<string, number[]>();
  const named = new Set<string>();
  for (const sentence of sentences) {
    if (sentence.segmentIndex < span.first || sentence.segmentIndex > span.last) continue;
    for (const phrase of nounPhrases(sentence.tokens)) {
      if (excluded.has(phrase.key)) continue;
      if (phrase.named) named.add(phrase.key);
      bump(counts, phrase.key);
      bump(surfaces.get(phrase.key) ?? surfaces.set(phrase.key, new Map()).get(phrase.key)!, phrase.words);
      const at = segments.get(phrase.key) ?? segments.set(phrase.key, []).get(phrase.key)!;
      if (at.at(-1) !== sentence.segmentIndex) at.push(sentence.segmentIndex);
    }
  }
  return { span, counts, surfaces, segments, named };
}

/** A span with nothing to be named by joins the span before it (the first joins the next). */
function mergeUnnamed(spans: SpanPhrases[], sentences: Sentence[], excluded: ReadonlySet<string>): SpanPhrases[] {
  const named = spans.filter((s) => s.counts.size > 0);
  if (named.length === spans.length || named.length === 0) return named;
  const starts = named.map((s, i) => (i === 0 ? spans[0]!.span.first : s.span.first));
  const last = spans.at(-1)!.span.last;
  return starts.map((first, i) => collectPhrases({ first, last: (starts[i + 1] ?? last + 1) - 1 }, sentences, excluded));
}

/** How well a phrase names this span: said often here, and mostly here rather than everywhere. */
function phraseScore(key: string, count: number, meetingCounts: Map<string, number>): number {
  const share = count / (meetingCounts.get(key) ?? count);
  return Math.log(1 + count) * share * (key.includes(' ') ? MULTIWORD_BONUS : 1);
}

function bestName(span: SpanPhrases, meetingCounts: Map<string, number>, used: Set<string>): string | undefined {
  let best: { key: string; score: number } | undefined;
  for (const [key, count] of span.counts) {
    if (used.has(key)) continue;
    const score = phraseScore(key, count, meetingCounts) * (span.named.has(key) ? NAMED_WEIGHT : 1);
    if (!best || score > best.score) best = { key, score };
  }
  return best?.key;
}

const mostCommon = (counts: Map<string, number> | undefined): string => [...(counts ?? new Map<string, number>())].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Each span as a topic named by its key phrase, timed from its first segment to the next topic's start. */
export function nameTopics(spans: SegmentSpan[], sentences: Sentence[], segments: NotesSegment[], speakers: NotesSpeaker[]): TopicItem[] {
  const excluded = new Set(speakers.flatMap((s) => [s.label, s.name ?? '']).map((n) => n.toLowerCase()));
  const phrases = mergeUnnamed(
    spans.map((span) => collectPhrases(span, sentences, excluded)),
    sentences,
    excluded,
  );
  const meetingCounts = new Map<string, number>();
  for (const p of phrases) for (const [key, count] of p.counts) meetingCounts.set(key, (meetingCounts.get(key) ?? 0) + count);
  const used = new Set<string>();
  return phrases.map((p, i) => {
    const key = bestName(p, meetingCounts, used) ?? mostCommon(p.counts);
    used.add(key);
    const next = phrases[i + 1];
    return {
      text: capitalise(mostCommon(p.surfaces.get(key))),
      segmentIds: (p.segments.get(key) ?? [p.span.first]).slice(0, MAX_TOPIC_CITATIONS).map((index) => segments[index]!.id),
      startMs: segments[p.span.first]!.startMs,
      endMs: next ? segments[next.span.first]!.startMs : segments[p.span.last]!.endMs,
    };
  });
}
