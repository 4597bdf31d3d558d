import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { NotesSegment, NotesSpeaker, NotesTranscript } from '#server/features/notes/notes-types.ts';

/**
 * The 20 AMI meetings of QMSum's product validation split (../shared/data/meetings, beside the
 * repository) as the notes engines read them, with their reference notes for tests and the bench.
 * A clone elsewhere can point PARLEY_SHARED_MEETINGS_DIR at them; without them the tests that need
 * them fail with this message, not silently.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SPLIT = 'qmsum-product-val';
/**
 * Another folder of QMSum meeting files (a clone's data/Academic/test, say) that the benches read
 * instead of the shared split: meetings nothing here was tuned on, to see whether a change holds
 * beyond the meetings it was tuned on.
 */
const OTHER_MEETINGS_DIR = process.env.QMSUM_MEETINGS_DIR || undefined;
const meetingsFolder = (): string => OTHER_MEETINGS_DIR ?? path.join(sharedMeetingsDir(), SPLIT);
/** The meetings kept out of tuning: two of the shared split's five series (it has no held-out part of its own), or all of another folder. */
export const isHeldOutMeeting = (name: string): boolean => OTHER_MEETINGS_DIR !== undefined || /^TS30(09|10)/.test(name);
/** QMSum's whole-meeting query, as most of its meetings word it. */
const WHOLE_MEETING_QUERY = /^summarize the (whole )?meeting\.?$/i;

/** AMI's speaking pace per the dataset's README: each turn lasts its word count at this rate. */
const WORDS_PER_SECOND = 2.6;
/** A fixed Tuesday morning, so due dates in tests and the bench resolve the same on every run. */
export const QMSUM_STARTED_AT = '2025-03-04T09:00:00.000Z';
export const QMSUM_TIME_ZONE = 'Europe/Amsterdam';

const SpanSchema = z.tuple([z.coerce.number().int(), z.coerce.number().int()]);
const MeetingFileSchema = z.object({
  meeting_transcripts: z.array(z.object({ speaker: z.string(), content: z.string() })),
  general_query_list: z.array(z.object({ query: z.string(), answer: z.string() })),
  topic_list: z.array(z.object({ topic: z.string(), relevant_text_span: z.array(SpanSchema) })),
  specific_query_list: z.array(z.object({ query: z.string(), answer: z.string(), relevant_text_span: z.array(SpanSchema) })),
});

/** Inclusive turn indexes, as the dataset gives them. */
export type TurnSpan = readonly [first: number, last: number];

export type QmsumMeeting = {
  /** The AMI meeting id, e.g. "ES2006a". */
  name: string;
  transcript: NotesTranscript;
  /** The number of turns in the file; turns left empty by cleaning have no segment. */
  turnCount: number;
  /** The answer to "Summarize the whole meeting." */
  referenceSummary: string;
  topics: Array<{ name: string; spans: TurnSpan[] }>;
  specificQueries: Array<{ query: string; answer: string; spans: TurnSpan[] }>;
};

export function sharedMeetingsDir(): string {
  const candidates = [process.env.PARLEY_SHARED_MEETINGS_DIR, path.resolve(repoRoot, '..', 'shared', 'data', 'meetings'), '/work/shared/data/meetings'];
  const found = candidates.find((dir): dir is string => dir !== undefined && fs.existsSync(path.join(dir, SPLIT)));
  if (!found) throw new Error(`The QMSum meetings were not found (looked in ${candidates.filter(Boolean).join(', ')}); set PARLEY_SHARED_MEETINGS_DIR.`);
  return found;
}

export const segmentIdOf = (meeting: string, turn: number): string => `${meeting}-${turn}`;

/** The turn index a segment id of `segmentIdOf` carries, or undefined for another id. */
export function turnOfSegmentId(id: string): number | undefined {
  const match = /-(\d+)$/.exec(id);
  return match ? Number(match[1]) : undefined;
}

/**
 * A turn's text as a speech recogniser would have written it. The corpus marks what no recogniser
 * writes: sounds ({vocalsound}), inaudible stretches ({gap}), pauses ({pause}) and the point where a
 * speaker broke off ({disfmarker}; the false start's words stay, as they would be heard); it spells
 * initialisms letter by letter ("L_C_D_s" for "LCDs"), and puts a space before each punctuation mark,
 * as its tokenizer left it.
 */
export function cleanCorpusText(content: string): string {
  return content
    .replace(/\{[a-z]+\}/gi, ' ')
    .replace(/\b((?:[A-Za-z]_)+)(s?)\b/g, (_, letters: string, plural: string) => `${letters.replace(/_/g, '')}${plural}`)
    .replace(/\s+([.,?!;:])/g, '$1')
    .replace(/([.,?!;:])(?:\s*[.,;:])+/g, '$1')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.,;:]+/, '')
    .trim();
}

const speakerIdOf = (role: string) => role.toLowerCase().replace(/[^a-z0-9]+/g, '-');

export function loadQmsumMeeting(name: string): QmsumMeeting {
  const file = path.join(meetingsFolder(), `${name}.json`);
  const data = MeetingFileSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
  const speakers: NotesSpeaker[] = [];
  const segments: NotesSegment[] = [];
  let atMs = 0;
  data.meeting_transcripts.forEach((turn, index) => {
    const text = cleanCorpusText(turn.content);
    if (text === '') return;
    const speakerId = speakerIdOf(turn.speaker);
    if (!speakers.some((s) => s.id === speakerId)) speakers.push({ id: speakerId, label: `Speaker ${speakers.length + 1}`, name: turn.speaker });
    const durationMs = Math.round((text.split(' ').length / WORDS_PER_SECOND) * 1000);
    segments.push({ id: segmentIdOf(name, index), speakerId, startMs: atMs, endMs: atMs + durationMs, text });
    atMs += durationMs;
  });
  // Some of QMSum's Academic meetings ask it otherwise ("What was the meeting about?"), first.
  const summary = data.general_query_list.find((q) => WHOLE_MEETING_QUERY.test(q.query.trim())) ?? data.general_query_list[0];
  if (!summary) throw new Error(`${name}: no whole-meeting query`);
  return {
    name,
    transcript: { title: name, startedAt: QMSUM_STARTED_AT, timeZone: QMSUM_TIME_ZONE, speakers, segments },
    turnCount: data.meeting_transcripts.length,
    referenceSummary: summary.answer,
    topics: data.topic_list.map((t) => ({ name: t.topic, spans: t.relevant_text_span })),
    specificQueries: data.specific_query_list.map((q) => ({ query: q.query, answer: q.answer, spans: q.relevant_text_span })),
  };
}

/**
 * The reference topic of each segment, as an index into `meeting.topics`. The dataset's spans can
 * overlap (the later topic takes the shared turns) and leave turns out (they stay with the topic
 * before them; the first topic takes any before it).
 */
export function referenceTopicOfSegments(meeting: QmsumMeeting): number[] {
  const spans = meeting.topics.flatMap((topic, index) => topic.spans.map(([first, last]) => ({ first, last, index }))).sort((a, b) => a.first - b.first);
  const labels = meeting.transcript.segments.map((segment) => {
    const turn = turnOfSegmentId(segment.id) ?? -1;
    return spans.filter((s) => s.first <= turn && turn <= s.last).at(-1)?.index;
  });
  let current = labels.find((label) => label !== undefined) ?? 0;
  return labels.map((label) => (current = label ?? current));
}

export function listQmsumMeetings(): string[] {
  return fs
    .readdirSync(meetingsFolder())
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();
}

export const loadQmsumMeetings = (): QmsumMeeting[] => listQmsumMeetings().map(loadQmsumMeeting);

/**
 * A meeting of `minutes` made of the dataset's meetings one after another, times running on, cut
 * at the first segment that would start later; segment ids stay unique because each carries its
 * meeting's name.
 */
export function longQmsumTranscript(minutes: number): NotesTranscript {
  const limitMs = minutes * 60_000;
  const segments: NotesSegment[] = [];
  const speakers: NotesSpeaker[] = [];
  for (const meeting of loadQmsumMeetings()) {
    const offsetMs = segments.at(-1)?.endMs ?? 0;
    for (const speaker of meeting.transcript.speakers) if (!speakers.some((s) => s.id === speaker.id)) speakers.push(speaker);
    for (const s of meeting.transcript.segments) {
      if (s.startMs + offsetMs >= limitMs)
        return { title: `QMSum meetings, ${minutes} minutes`, startedAt: QMSUM_STARTED_AT, timeZone: QMSUM_TIME_ZONE, speakers, segments };
      segments.push({ ...s, startMs: s.startMs + offsetMs, endMs: s.endMs + offsetMs });
    }
  }
  return { title: `QMSum meetings, ${minutes} minutes`, startedAt: QMSUM_STARTED_AT, timeZone: QMSUM_TIME_ZONE, speakers, segments };
}
