import Sentiment from 'sentiment';

/**
 * Sentiment of a piece of transcript from its words alone (the AFINN-165 word list, as the
 * privacy dialog on /record tells people): no audio, no voice features, nothing leaves the server.
 */
const analyzer = new Sentiment();

/** Above this a turn counts as positive, below its negative as negative (AFINN's comparative score per word). */
export const SENTIMENT_THRESHOLD = 0.05;

export type SentimentLabel = 'positive' | 'neutral' | 'negative';

/** A score in -1..1: AFINN's per-word comparative score (-5..5 per word) scaled and clamped. */
export function scoreSentiment(text: string): number {
  const { comparative } = analyzer.analyze(text);
  const scaled = comparative / 2;
  return Math.max(-1, Math.min(1, Math.round(scaled * 1000) / 1000));
}

export function sentimentLabel(score: number): SentimentLabel {
  if (score > SENTIMENT_THRESHOLD) return 'positive';
  if (score < -SENTIMENT_THRESHOLD) return 'negative';
  return 'neutral';
}
