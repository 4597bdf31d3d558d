import type { NotesTranscript } from '../../notes-types.ts';
import type { PartNotes } from './answer-schemas.ts';
import { meetingLocalDay } from './meeting-date.ts';

/**
 * What the model is told. The JSON shape is spelled out in the prompt whatever the output mode,
 * because in json_object and text modes it is the only place the model learns it (and OpenAI's
 * json_object mode wants the word JSON in the messages).
 */
const ITEM_SHAPES =
  '"keyPoints": [{"text": "…", "refs": ["S3"]}], ' +
  '"topics": [{"title": "2–6 word title", "refs": ["S1", "S2"]}], ' +
  '"actionItems": [{"text": "…", "owner": "Ana" or "me" or null, "due": "YYYY-MM-DD" or null, "dueText": "by Friday" or null, "refs": ["S5"]}], ' +
  '"decisions": [{"text": "…", "refs": ["S4"]}]';

export const PART_SHAPE = `{"summaryPoints": [{"text": "one sentence", "refs": ["S2"]}], ${ITEM_SHAPES}}`;
export const FINAL_SHAPE = `{"summary": [{"text": "one sentence of the summary", "refs": ["S1", "S2"]}], ${ITEM_SHAPES}}`;

export function systemPrompt(shape: string): string {
  return [
    'You write meeting notes from a transcript. Each transcript line starts with a reference in brackets, like [S12], then who spoke.',
    'Rules:',
    '- Use only what was said. Add no facts, names, numbers or dates that are not in the transcript.',
    '- Every item, and every sentence of the summary, lists in "refs" the references of the lines it comes from. Cite only references you were given, and use the words of those lines where you can.',
    '- A sentence or item whose refs do not hold what it says is left out of the notes.',
    '- keyPoints: the important facts, problems and conclusions. decisions: what was agreed or settled. topics: the subjects discussed, in order, each with a short title.',
    '- actionItems: what someone committed to do. "owner" is the name of who will do it as the transcript names them, "me" when the speaker of the cited line commits themselves, or null when nobody is named.',
    '- "dueText" is the words that say when ("by Friday"), or null; "due" is that day as YYYY-MM-DD counted from the meeting date, or null.',
    '- Empty lists are fine when the transcript has nothing of that kind.',
    `Answer with one JSON object only, in this shape: ${shape}`,
  ].join('\n');
}

function meetingHeader(transcript: NotesTranscript): string {
  const day = meetingLocalDay(transcript.startedAt, transcript.timeZone);
  const speakers = transcript.speakers.map((s) => s.name ?? s.label).join(', ');
  const header = [`Meeting: ${transcript.title}`, `Date: ${day.weekday} ${day.iso}`, `Speakers: ${speakers || 'not identified'}`];
  // The custom vocabulary: names and terms the transcript may have misheard, to be written this way.
  if (transcript.vocabulary && transcript.vocabulary.length > 0)
    header.push(`Names and terms (spell them exactly like this): ${transcript.vocabulary.join(', ')}`);
  return header.join('\n');
}

/** Notes on one part of a meeting read in several. */
export function partPrompt(transcript: NotesTranscript, lines: string[], part: number, parts: number): string {
  return [
    meetingHeader(transcript),
    `This is part ${part} of ${parts} of the transcript.`,
    '',
    'Transcript:',
    ...lines,
    '',
    'Write notes on this part. summaryPoints: 1–5 sentences on what this part covers, each with its refs.',
  ].join('\n');
}

/** The notes of a meeting read in one piece. */
export function wholePrompt(transcript: NotesTranscript, lines: string[]): string {
  return [
    meetingHeader(transcript),
    '',
    'Transcript:',
    ...lines,
    '',
    'Write the notes of this meeting. summary: 60–150 words of plain prose, one sentence per entry, each with its refs.',
  ].join('\n');
}

/** Notes of consecutive parts merged: into the final notes, or (hierarchical reduce) into one larger part. */
export function mergePrompt(transcript: NotesTranscript, parts: PartNotes[], final: boolean): string {
  return [
    meetingHeader(transcript),
    `Notes were written on ${parts.length} consecutive parts of this meeting, in order, citing transcript references.`,
    'Merge them into one set of notes: combine items that say the same thing into one (keeping all their refs), keep every other item,',
    'keep topics in meeting order and join a topic that continues from one part into the next.',
    final
      ? 'summary: 60–150 words of plain prose about the whole meeting, one sentence per entry, from the summaryPoints, each keeping the refs of the points it comes from.'
      : 'summaryPoints: at most 8 sentences on what these parts cover, each keeping the refs of the points it comes from.',
    '',
    'Parts:',
    JSON.stringify(parts),
  ].join('\n');
}
