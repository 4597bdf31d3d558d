import { describe, expect, it } from 'vitest';
import { MAX_IMPORT_SEGMENTS, MAX_TRANSCRIPT_IMPORT_BYTES } from '#shared/contracts/meetings.ts';
import { MAX_NOTES_LINE_WORDS, MAX_NOTES_WORDS, withinNotesBudget } from './notes-budget.ts';
import type { NotesSegment } from './notes-types.ts';

const wordCount = (segments: NotesSegment[]) => segments.reduce((sum, s) => sum + s.text.split(/\s+/).filter(Boolean).length, 0);
const segment = (i: number, text: string): NotesSegment => ({ id: `s${i}`, speakerId: null, startMs: i * 2000, endMs: i * 2000 + 1500, text });

describe('the transcript the notes read', () => {
  it('is the whole transcript when it is within the budget', () => {
    const meeting = Array.from({ length: 14_400 }, (_, i) => segment(i, 'we agreed to ship Thursday')); // 8 hours at 150 words a minute, a turn every 2 s
    expect(withinNotesBudget(meeting)).toEqual(meeting);
  });

  it('reads the largest import allowed within the budget, with lines from across the whole meeting', () => {
    // 20,000 lines filling 5 MB: some 900,000 words.
    const words = Math.floor(MAX_TRANSCRIPT_IMPORT_BYTES / MAX_IMPORT_SEGMENTS / 5.5);
    const meeting = Array.from({ length: MAX_IMPORT_SEGMENTS }, (_, i) => segment(i, `line ${i} ${'word '.repeat(words - 2)}`));
    expect(wordCount(meeting)).toBeGreaterThan(8 * MAX_NOTES_WORDS);
    const read = withinNotesBudget(meeting);
    expect(wordCount(read)).toBeLessThanOrEqual(MAX_NOTES_WORDS);
    expect(wordCount(read)).toBeGreaterThan(0.95 * MAX_NOTES_WORDS);
    const positions = read.map((s) => Number(s.id.slice(1)));
    expect(positions[0]).toBeLessThan(MAX_IMPORT_SEGMENTS * 0.01);
    expect(positions.at(-1)).toBeGreaterThan(MAX_IMPORT_SEGMENTS * 0.99);
    // Evenly: every tenth of the meeting has its share of the lines read.
    for (let tenth = 0; tenth < 10; tenth++) {
      const inTenth = positions.filter((p) => Math.floor(p / (MAX_IMPORT_SEGMENTS / 10)) === tenth).length;
      expect(inTenth).toBeGreaterThan((read.length / 10) * 0.9);
    }
  });

  it('cuts a line longer than any turn, and reads one huge line within the budget', () => {
    const [line] = withinNotesBudget([segment(0, 'ok '.repeat(900_000))]);
    expect(wordCount([line!])).toBe(MAX_NOTES_LINE_WORDS);
  });
});
