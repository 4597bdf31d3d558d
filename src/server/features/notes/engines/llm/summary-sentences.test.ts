import { describe, expect, it } from 'vitest';
import { makeTranscript } from '#tests/support/notes-transcript.ts';
import { checkCitations } from '../../citations.ts';
import { FinalNotesSchema, PartNotesSchema } from './answer-schemas.ts';
import { extractJson } from './extract-json.ts';
import { concatParts, finalFromPart } from './merge-items.ts';
import { partFromLocal, toDraft } from './part-notes.ts';
import { FINAL_SHAPE, mergePrompt, PART_SHAPE, systemPrompt, wholePrompt } from './prompts.ts';
import { wireSchema } from './structured-output.ts';
import { referenceTranscript } from './transcript-lines.ts';

const transcript = makeTranscript([
  ['spk-ana', 'The launch budget is capped at forty thousand euros this quarter.'],
  ['spk-sam', 'I will book the photographer for the launch party by Friday.'],
  ['spk-ana', 'Then we go with the rooftop venue, everyone agreed.'],
]);
const referenced = referenceTranscript(transcript);

/** What the model answered, parsed as the engine parses it, then made notes and checked. */
function notesOf(answer: unknown) {
  const final = FinalNotesSchema.parse(extractJson(JSON.stringify(answer)));
  const { draft, unknownRefs } = toDraft(final, referenced, transcript);
  return { unknownRefs, ...checkCitations(draft, transcript) };
}

describe('the LLM summary as cited sentences', () => {
  it('asks for the summary as sentences each with refs, in the prompt and in the JSON schema', () => {
    expect(systemPrompt(FINAL_SHAPE)).toContain('{"summary": [{"text": "one sentence of the summary", "refs": ["S1", "S2"]}]');
    expect(systemPrompt(PART_SHAPE)).toContain('{"summaryPoints": [{"text": "one sentence", "refs": ["S2"]}]');
    expect(systemPrompt(FINAL_SHAPE)).toContain('every sentence of the summary, lists in "refs"');
    expect(wholePrompt(transcript, [])).toContain('one sentence per entry, each with its refs');
    expect(mergePrompt(transcript, [], true)).toContain('each keeping the refs of the points it comes from');
    const sentence = { type: 'object', required: ['text', 'refs'], additionalProperties: false };
    expect(wireSchema(FinalNotesSchema)).toMatchObject({ properties: { summary: { type: 'array', items: sentence } } });
    expect(wireSchema(PartNotesSchema)).toMatchObject({ properties: { summaryPoints: { type: 'array', items: sentence } } });
  });

  it('keeps the sentences whose citations hold, with their segments, and makes the summary of them', () => {
    const { draft, droppedUncited } = notesOf({
      summary: [
        { text: 'The launch budget is capped at forty thousand euros.', refs: ['S1'] },
        { text: 'Sam Okafor will book the photographer by Friday, and the rooftop venue was agreed.', refs: ['[S3]', 's2'] },
      ],
    });
    expect(draft.summarySentences).toEqual([
      { text: 'The launch budget is capped at forty thousand euros.', segmentIds: ['s1'] },
      { text: 'Sam Okafor will book the photographer by Friday, and the rooftop venue was agreed.', segmentIds: ['s2', 's3'] },
    ]);
    expect(draft.summary).toBe(draft.summarySentences!.map((s) => s.text).join(' '));
    expect(droppedUncited).toBe(0);
  });

  it('drops a sentence citing a line never shown, one its line does not hold and one citing nothing, as items are; they are no items, so not counted', () => {
    const { draft, droppedUncited, unknownRefs } = notesOf({
      summary: [
        { text: 'The launch budget is capped at forty thousand euros.', refs: ['S1'] },
        { text: 'The rooftop venue was agreed.', refs: ['S3', 'S42'] },
        { text: 'The board approved buying a competitor for twelve million dollars.', refs: ['S2'] },
        { text: 'Sam Okafor will book the photographer.' },
      ],
      decisions: [{ text: 'Go with the rooftop venue.', refs: ['S42'] }],
    });
    expect(draft.summarySentences).toEqual([{ text: 'The launch budget is capped at forty thousand euros.', segmentIds: ['s1'] }]);
    expect(draft.summary).toBe('The launch budget is capped at forty thousand euros.');
    expect(draft.decisions).toEqual([]);
    expect(unknownRefs + droppedUncited).toBe(1); // the decision only
  });

  it('gives an empty summary, not an uncited one, when no sentence holds', () => {
    const { draft } = notesOf({ summary: [{ text: 'Everyone will move to Mars next year.', refs: ['S1'] }] });
    expect(draft).toMatchObject({ summary: '', summarySentences: [] });
  });

  it('refuses a malformed summary as a malformed answer (tried again, then split): prose in one string, or sentences without text', () => {
    expect(FinalNotesSchema.safeParse({ summary: 'The launch budget is capped.' }).success).toBe(false);
    expect(FinalNotesSchema.safeParse({ summary: [{ refs: ['S1'] }] }).success).toBe(false);
    expect(FinalNotesSchema.safeParse({ summary: ['The launch budget is capped.'] }).success).toBe(false);
    expect(PartNotesSchema.safeParse({ summaryPoints: ['The launch budget is capped.'] }).success).toBe(false);
  });

  it('keeps the refs of summary points through a merge done without the model, and of a part covered locally', () => {
    const local = partFromLocal(
      {
        summary: 'Sam Okafor will book the photographer by Friday.',
        summarySentences: [{ text: 'Sam Okafor will book the photographer by Friday.', segmentIds: ['s2'] }],
        keyPoints: [],
        topics: [],
        actionItems: [],
        decisions: [],
        engine: 'local',
        droppedUncited: 0,
        localFallbackParts: 0,
      },
      referenced,
    );
    expect(local.summaryPoints).toEqual([{ text: 'Sam Okafor will book the photographer by Friday.', refs: ['S2'] }]);
    const first = PartNotesSchema.parse({ summaryPoints: [{ text: 'The launch budget is capped at forty thousand euros.', refs: ['S1'] }] });
    const final = finalFromPart(concatParts([first, local]));
    const { draft } = checkCitations(toDraft(final, referenced, transcript).draft, transcript);
    expect(draft.summarySentences?.map((s) => s.segmentIds)).toEqual([['s1'], ['s2']]);
  });
});
