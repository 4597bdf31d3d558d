import { describe, expect, it } from 'vitest';
import type { CitedItem, NotesDraft } from '../../notes-types.ts';
import { loadQmsumMeetings } from '#tests/support/qmsum.ts';
import { checkCitations } from '../../citations.ts';
import { generateLocalNotes } from './generate-local-notes.ts';

/** The engine's notes on each of the 20 QMSum meetings, checked against the rules. */
const meetings = loadQmsumMeetings().map((meeting) => ({ meeting, notes: generateLocalNotes(meeting.transcript) }));

const words = (text: string) => text.split(/\s+/).filter(Boolean);
const wordSet = (text: string) => new Set(words(text.toLowerCase().replace(/[^\p{L}\p{N}\s']/gu, ' ')));

/** The words that put "we" in the third person ("the group have", "their"), which the segment never says. */
const REPORTING_WORDS: ReadonlySet<string> = new Set(['the', 'group', 'they', 'them', 'their', 'theirs', 'themselves', 'are', 'have', 'will', 'would']);

/** Word-set overlap (Jaccard): two key points at 0.5 or more say nearly the same thing. */
function overlap(a: string, b: string): number {
  const [x, y] = [wordSet(a), wordSet(b)];
  const shared = [...x].filter((w) => y.has(w)).length;
  return shared / (x.size + y.size - shared);
}

const allItems = (notes: NotesDraft): CitedItem[] => [...notes.keyPoints, ...notes.topics, ...notes.actionItems, ...notes.decisions];

describe.each(meetings)('local notes on QMSum $meeting.name', ({ meeting, notes }) => {
  const ids = meeting.transcript.segments.map((s) => s.id);

  it('has a summary of 60–150 words of cleaned prose', () => {
    expect(words(notes.summary).length).toBeGreaterThanOrEqual(60);
    expect(words(notes.summary).length).toBeLessThanOrEqual(150);
    expect(notes.summary).not.toMatch(/\b(um|uh|erm|mm-hmm)\b/i);
    expect(notes.summary).toMatch(/^[A-Z].*[.?!]$/s);
  });

  it('has 3–8 key points, no two nearly the same, each drawn from the segment it cites', () => {
    expect(notes.keyPoints.length).toBeGreaterThanOrEqual(3);
    expect(notes.keyPoints.length).toBeLessThanOrEqual(8);
    for (const [i, a] of notes.keyPoints.entries()) for (const b of notes.keyPoints.slice(i + 1)) expect(overlap(a.text, b.text)).toBeLessThan(0.5);
    for (const point of notes.keyPoints) {
      const said = wordSet(meeting.transcript.segments.find((s) => s.id === point.segmentIds[0])?.text ?? '');
      const written = [...wordSet(point.text)].filter((w) => !REPORTING_WORDS.has(w));
      expect(written.filter((w) => said.has(w)).length / written.length).toBeGreaterThanOrEqual(0.8);
    }
  });

  it('cites at least one existing segment for every item, in transcript order', () => {
    for (const item of allItems(notes)) {
      expect(item.segmentIds.length).toBeGreaterThanOrEqual(1);
      const positions = item.segmentIds.map((id) => ids.indexOf(id));
      expect(positions.every((p) => p >= 0)).toBe(true);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
    }
  });

  it("cites so that the notes' own check keeps every item, on the meeting and on each part of 40 segments", () => {
    expect(checkCitations(notes, meeting.transcript).droppedUncited).toBe(0);
    // Parts stand in for meetings the project does not have: other stretches of talk, other names.
    const { segments } = meeting.transcript;
    for (let first = 0; first < segments.length; first += 40) {
      const part = { ...meeting.transcript, segments: segments.slice(first, first + 40) };
      expect(checkCitations(generateLocalNotes(part), part).droppedUncited).toBe(0);
    }
  });

  it('cuts the meeting into named topics that follow one another and cover it', () => {
    const { segments } = meeting.transcript;
    expect(notes.topics.length).toBeGreaterThanOrEqual(1);
    expect(notes.topics[0]!.startMs).toBe(segments[0]!.startMs);
    expect(notes.topics.at(-1)!.endMs).toBe(segments.at(-1)!.endMs);
    notes.topics.forEach((topic, i) => {
      expect(topic.text).toMatch(/\p{L}{3}/u);
      expect(topic.startMs).toBeLessThan(topic.endMs);
      if (i > 0) expect(topic.startMs).toBe(notes.topics[i - 1]!.endMs);
      for (const id of topic.segmentIds) {
        const segment = segments.find((s) => s.id === id)!;
        expect(segment.startMs).toBeGreaterThanOrEqual(topic.startMs);
        expect(segment.endMs).toBeLessThanOrEqual(topic.endMs);
      }
    });
  });

  it('writes action items as imperatives with a known owner or none', () => {
    const names = new Set(meeting.transcript.speakers.map((s) => s.name));
    for (const item of notes.actionItems) {
      expect(item.text).toMatch(/^[A-Z]/);
      if (item.assigneeSpeakerId !== null) expect(names.has(item.assignee)).toBe(true);
      expect(item.assignee ?? '').not.toMatch(/^Speaker \d+$/);
    }
  });
});
