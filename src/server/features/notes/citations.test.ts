import { describe, expect, it } from 'vitest';
import { CITATION_CASES, CITATION_MEETING } from '#tests/support/notes-citation-cases.ts';
import { checkCitations, checkCitedItem, indexTranscript } from './citations.ts';
import type { NotesDraft, NotesTranscript } from './notes-types.ts';

const empty: NotesDraft = { summary: '', keyPoints: [], topics: [], actionItems: [], decisions: [] };
const action = (text: string, segmentIds: string[]) => ({ text, segmentIds, assignee: null, assigneeSpeakerId: null, due: null, dueText: null });

describe('checkCitedItem', () => {
  const index = indexTranscript(CITATION_MEETING);

  it('keeps every faithful labelled case but one paraphrase in other words, and drops every unfaithful one', () => {
    const verdicts = CITATION_CASES.map((c) => ({ c, ok: checkCitedItem(c, index).ok }));
    const wronglyDropped = verdicts.filter((v) => v.c.kind === 'faithful' && !v.ok).map((v) => v.c.text);
    const wronglyKept = verdicts.filter((v) => v.c.kind === 'unfaithful' && v.ok).map((v) => v.c.text);
    expect(wronglyDropped).toEqual(['Release postponed by seven days']);
    expect(wronglyKept).toEqual([]);
  });

  it('refuses an item citing nothing, or any id that is not this meeting’s', () => {
    expect(checkCitedItem({ text: 'The mobile build is failing', segmentIds: [] }, index)).toMatchObject({ ok: false, reason: 'no-citation' });
    expect(checkCitedItem({ text: 'The mobile build is failing', segmentIds: ['seg-2', 'other-meeting-seg-2'] }, index)).toMatchObject({
      ok: false,
      reason: 'unknown-segment',
    });
  });

  it('refuses empty text and text with no content words', () => {
    expect(checkCitedItem({ text: '', segmentIds: ['seg-2'] }, index)).toMatchObject({ ok: false, reason: 'no-content' });
    expect(checkCitedItem({ text: "Yes, we'll do it.", segmentIds: ['seg-2'] }, index)).toMatchObject({ ok: false, reason: 'no-content' });
  });

  it('finds words across all cited segments and counts who spoke as said', () => {
    const verdict = checkCitedItem({ text: 'Ben: Android crash needs another week', segmentIds: ['seg-3'] }, index);
    expect(verdict).toMatchObject({ ok: true, share: 1 });
  });

  it('de-duplicates ids and puts them in transcript order', () => {
    expect(checkCitedItem({ text: 'Launch moved to the nineteenth, costing the newsletter slot', segmentIds: ['seg-5', 'seg-4', 'seg-5'] }, index)).toEqual({
      ok: true,
      segmentIds: ['seg-4', 'seg-5'],
      share: 1,
    });
  });
});

describe('checkCitations', () => {
  it('drops and counts failing items across every list, keeping the rest', () => {
    const { draft, droppedUncited } = checkCitations(
      {
        summary: '  The team moved the launch.  ',
        keyPoints: [
          { text: 'Thirty tickets asked about the team discount', segmentIds: ['seg-9'] },
          { text: 'Revenue doubled last quarter', segmentIds: ['seg-9'] },
        ],
        topics: [],
        actionItems: [action('Ben sends the crash report by Friday', ['seg-7']), action('Chloe books a venue', ['seg-404'])],
        decisions: [
          { text: 'The enterprise tier stays', segmentIds: ['seg-12'] },
          { text: '', segmentIds: ['seg-12'] },
        ],
      },
      CITATION_MEETING,
    );
    expect(droppedUncited).toBe(3);
    expect(draft.summary).toBe('The team moved the launch.');
    expect(draft.keyPoints.map((k) => k.text)).toEqual(['Thirty tickets asked about the team discount']);
    expect(draft.actionItems.map((a) => a.text)).toEqual(['Ben sends the crash report by Friday']);
    expect(draft.decisions.map((d) => d.text)).toEqual(['The enterprise tier stays']);
  });

  it('times topics from their cited segments, whatever the model said, and orders them', () => {
    const { draft } = checkCitations(
      {
        ...empty,
        topics: [
          { text: 'Pricing page', segmentIds: ['seg-10', 'seg-8'], startMs: 0, endMs: 999_999 },
          { text: 'Launch date', segmentIds: ['seg-5', 'seg-4'], startMs: Number.NaN, endMs: -1 },
        ],
      },
      CITATION_MEETING,
    );
    expect(draft.topics).toEqual([
      { text: 'Launch date', segmentIds: ['seg-4', 'seg-5'], startMs: 24_000, endMs: 39_000 },
      { text: 'Pricing page', segmentIds: ['seg-8', 'seg-10'], startMs: 56_000, endMs: 79_000 },
    ]);
  });

  it('drops an item whose only cited segment has no text', () => {
    const silent: NotesTranscript = { ...CITATION_MEETING, segments: [{ id: 'quiet', speakerId: null, startMs: 0, endMs: 500, text: '' }] };
    const { draft, droppedUncited } = checkCitations({ ...empty, keyPoints: [{ text: 'Budget approved', segmentIds: ['quiet'] }] }, silent);
    expect(draft.keyPoints).toEqual([]);
    expect(droppedUncited).toBe(1);
  });

  it('keeps an item whose words are partly found, above the threshold, and drops one below it', () => {
    const { draft, droppedUncited } = checkCitations(
      {
        ...empty,
        keyPoints: [
          { text: 'The dashboard is slow; an index on event date fixes it', segmentIds: ['seg-15', 'seg-16'] },
          { text: 'The dashboard moves to a new cloud vendor with faster servers', segmentIds: ['seg-15'] },
        ],
      },
      CITATION_MEETING,
    );
    expect(draft.keyPoints.map((k) => k.text)).toEqual(['The dashboard is slow; an index on event date fixes it']);
    expect(droppedUncited).toBe(1);
  });
});
