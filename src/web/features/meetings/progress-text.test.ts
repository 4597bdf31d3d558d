import { describe, expect, it } from 'vitest';
import { MeetingProgressEventSchema } from '#shared/contracts/realtime.ts';
import { notesRunningText, transcriptionText } from './progress-text.ts';

const NOW = Date.parse('2026-12-06T12:00:00.000Z');
const inSeconds = (s: number) => new Date(NOW + s * 1000).toISOString();

describe('transcriptionText', () => {
  it('says each stage in words, with its percentage while under way', () => {
    expect(transcriptionText({ stage: 'queued', progress: null }, NOW)).toBe('Waiting for its turn…');
    expect(transcriptionText({ stage: 'decoding', progress: null }, NOW)).toBe('Reading the recording…');
    expect(transcriptionText({ stage: 'transcribing', progress: 0.4 }, NOW)).toBe('Transcribing… 40%');
    expect(transcriptionText({ stage: 'identifying speakers', progress: null }, NOW)).toBe('Telling speakers apart…');
    expect(transcriptionText({ stage: 'saving', progress: 1 }, NOW)).toBe('Saving the transcript…');
  });

  it('counts the wait before a retry down from retryAt, and stops at zero', () => {
    const waiting = { stage: 'waiting to retry', progress: null, retryAt: inSeconds(30) } as const;
    expect(transcriptionText(waiting, NOW)).toBe('Waiting to retry in 30 s…');
    expect(transcriptionText(waiting, NOW + 29_500)).toBe('Waiting to retry in 1 s…');
    expect(transcriptionText(waiting, NOW + 30_000)).toBe('Waiting to retry…');
    expect(transcriptionText({ ...waiting, retryAt: inSeconds(125) }, NOW)).toBe('Waiting to retry in 2 min 5 s…');
    expect(transcriptionText({ ...waiting, retryAt: inSeconds(120) }, NOW)).toBe('Waiting to retry in 2 min…');
    expect(transcriptionText({ ...waiting, retryAt: null }, NOW)).toBe('Waiting to retry…');
  });

  it('names the part under way of work done in parts', () => {
    expect(transcriptionText({ stage: 'transcribing', progress: 0.25, part: 2, parts: 5 }, NOW)).toBe('Transcribing: part 2 of 5… 25%');
  });

  it('never prints a stage it does not know: the free text of an older server reads as a neutral word', () => {
    const old = MeetingProgressEventSchema.parse({
      type: 'meeting.progress',
      meetingId: '6f1c2b8e-3d4a-4e5f-9a6b-7c8d9e0f1a2b',
      status: 'processing',
      stage: 'waiting to retry (in 30 s)',
      progress: null,
      failureReason: null,
    });
    expect(old.stage).toBeNull();
    expect(transcriptionText(old, NOW)).toBe('Transcribing…');
    expect(transcriptionText({ stage: null, progress: 0.5 }, NOW)).toBe('Transcribing… 50%');
  });
});

describe('notesRunningText', () => {
  it('says which part of the notes is being written', () => {
    expect(notesRunningText({ part: 2, parts: 5 })).toBe('Writing notes: part 2 of 5');
    expect(notesRunningText(null)).toBe('Writing notes…');
  });
});
