import type { NotesDraft, NotesProgress, NotesTranscript } from '../../notes-types.ts';
import { findActionItems } from './action-items.ts';
import { findDecisions } from './decisions.ts';
import { meetingClock } from '../../due-dates.ts';
import { findTopicSpans } from './find-topic-spans.ts';
import { nameTopics } from './name-topics.ts';
import { rankStatements } from './rank-statements.ts';
import { splitSentences } from './split-sentences.ts';
import { pickKeyPoints, writeSummary } from './summarise.ts';
import { learnTermSpace } from './term-weights.ts';

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
  const summary = writeSummary(ranked, space, topics);
  const keyPoints = pickKeyPoints(ranked, space, meetingMs);
  report(3);
  const actionItems = findActionItems(sentences, speakers, meetingClock(transcript.startedAt, transcript.timeZone));
  report(4);
  const decisions = findDecisions(sentences, space);
  report(5);
  return { summary, keyPoints, topics, actionItems, decisions };
}
