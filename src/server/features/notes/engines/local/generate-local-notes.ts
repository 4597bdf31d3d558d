import { checkCitedItem, indexTranscript } from '../../citations.ts';
import type { CitedItem, NotesDraft, NotesProgress, NotesTranscript } from '../../notes-types.ts';
import { findActionItems } from './action-items.ts';
import { decisionSentences } from './decisions.ts';
import { renderSentence } from './clean-speech.ts';
import { meetingClock } from '../../due-dates.ts';
import { findTopicSpans } from './find-topic-spans.ts';
import { nameTopics } from './name-topics.ts';
import { rankStatements } from './rank-statements.ts';
import { splitSentences, type Sentence } from './split-sentences.ts';
import { pickKeyPoints, writeSummary } from './summarise.ts';
import { learnTermSpace } from './term-weights.ts';

/** "That is still open", "an open question", "not decided yet": what the meeting left for later. */
const LEFT_OPEN =
  /\b(still open|(an|the) open (question|issue|point)|not (yet )?decided|(have|has)n['’]?t decided|undecided|to be decided|tbd|unresolved|still unclear)\b/i;
const isLeftOpen = (sentence: Sentence) => sentence.tokens.length > 0 && LEFT_OPEN.test(sentence.text) && new Set(sentence.terms).size >= 2;

/**
 * The summary from its sentences, each kept only when it holds against the segments it was written
 * from, as the notes' items must: a sentence the rewriting into the third person took too far from
 * what was said is left out rather than shown.
 */
export function checkedSummary(sentences: CitedItem[], transcript: NotesTranscript): CitedItem[] {
  const index = indexTranscript(transcript);
  return sentences.flatMap((sentence) => {
    const verdict = checkCitedItem(sentence, index);
    return verdict.ok ? [{ text: sentence.text.trim(), segmentIds: verdict.segmentIds }] : [];
  });
}

/** The stages reported through onProgress: read, topics, summary and key points, action items, decisions. */
export const LOCAL_NOTES_STAGES = 5;

/**
 * The local engine: meeting notes from the transcript alone, deterministic and offline. Pure CPU
 * (no I/O), synchronous, so a worker thread can host it.
 */
export function generateLocalNotes(transcript: NotesTranscript, options: { onProgress?: NotesProgress } = {}): NotesDraft {
  const report = (stage: number) => options.onProgress?.(stage, LOCAL_NOTES_STAGES);
  const { segments, speakers } = transcript;
  const sentences = splitSentences(segments);
  const space = learnTermSpace(sentences);
  report(1);
  const meetingMs = Math.max(0, (segments.at(-1)?.endMs ?? 0) - (segments[0]?.startMs ?? 0));
  const topics = nameTopics(findTopicSpans(sentences, segments.length, meetingMs, space), sentences, segments, speakers);
  report(2);
  const ranked = rankStatements(sentences, space);
  report(3);
  const actionItems = findActionItems(sentences, speakers, meetingClock(transcript.startedAt, transcript.timeZone));
  report(4);
  // Each decision once, as the cleaned sentence that states it, citing where it was said.
  const decided = decisionSentences(sentences, space);
  const decisions = decided.map((sentence) => ({ text: renderSentence(sentence.tokens), segmentIds: [sentence.segmentId] }));
  const byIndex = new Map(ranked.map((r) => [r.sentence.index, r]));
  const asStatement = (sentence: Sentence) => byIndex.get(sentence.index) ?? { sentence, bow: space.bowOf(sentence.terms), score: 0 };
  const written = writeSummary(
    ranked,
    space,
    topics,
    {
      decisions: decided.map(asStatement),
      actionItems,
      openQuestions: sentences.filter(isLeftOpen).map(asStatement),
    },
    { segments, speakers },
  );
  const summarySentences = checkedSummary(written, transcript);
  // Each item in one place: a turn that holds a decision or an action item gives no key point.
  const keyPoints = pickKeyPoints(ranked, space, meetingMs, new Set([...decisions, ...actionItems].flatMap((i) => i.segmentIds)));
  report(5);
  return { summary: summarySentences.map((s) => s.text).join(' '), summarySentences, keyPoints, topics, actionItems, decisions };
}
