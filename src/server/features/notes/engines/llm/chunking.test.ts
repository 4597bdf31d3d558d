import { describe, expect, it } from 'vitest';
import type { NotesTranscript } from '../../notes-types.ts';
import { chunkTranscript, splitChunk } from './chunking.ts';
import { referenceTranscript } from './transcript-lines.ts';

/** Segments spoken by the given speakers in order, each of about the same length. */
function meeting(speakers: string): NotesTranscript {
  return {
    title: 't',
    startedAt: '2026-01-01T10:00:00Z',
    timeZone: 'UTC',
    speakers: [...new Set(speakers)].map((id) => ({ id, label: `Speaker ${id}`, name: null })),
    segments: [...speakers].map((speakerId, i) => ({
      id: `s${i}`,
      speakerId,
      startMs: i * 1000,
      endMs: i * 1000 + 900,
      text: `point number ${i} about the quarterly plan`,
    })),
  };
}

const speakersOf = (lines: { segment: { speakerId: string | null } }[]) => lines.map((l) => l.segment.speakerId).join('');

describe('chunkTranscript', () => {
  const { lines } = referenceTranscript(meeting('aaabbbcccaaabbb'));
  const perLine = lines[0]!.tokens;

  it('packs whole speaker turns under the budget, never cutting a turn', () => {
    const chunks = chunkTranscript(lines, perLine * 7);
    expect(chunks.map((c) => speakersOf(c.lines))).toEqual(['aaabbb', 'cccaaa', 'bbb']);
    expect(chunks.every((c) => c.tokens <= perLine * 7)).toBe(true);
  });

  it('cuts a turn longer than the budget between its segments', () => {
    const long = referenceTranscript(meeting('abbbbbbc')).lines;
    expect(chunkTranscript(long, perLine * 3).map((c) => speakersOf(c.lines))).toEqual(['a', 'bbb', 'bbb', 'c']);
  });

  it('keeps everything in one chunk when it fits', () => {
    expect(chunkTranscript(lines, 100_000)).toHaveLength(1);
  });
});

describe('splitChunk', () => {
  it('cuts at the turn boundary nearest the middle', () => {
    const [chunk] = chunkTranscript(referenceTranscript(meeting('aabbbbcc')).lines, 100_000);
    const halves = splitChunk(chunk!)!;
    expect(halves.map((h) => speakersOf(h.lines))).toEqual(['aa', 'bbbbcc']);
  });

  it('cuts one long turn between segments, and cannot cut a single segment', () => {
    const [chunk] = chunkTranscript(referenceTranscript(meeting('aaaa')).lines, 100_000);
    expect(splitChunk(chunk!)!.map((h) => h.lines.length)).toEqual([2, 2]);
    const [single] = chunkTranscript(referenceTranscript(meeting('a')).lines, 100_000);
    expect(splitChunk(single!)).toBeUndefined();
  });
});
