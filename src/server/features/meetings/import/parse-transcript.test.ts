import { describe, expect, it } from 'vitest';
import { OTTER_SRT, SPEAKER_BLOCKS_TXT, TEAMS_VTT, ZOOM_VTT } from '#tests/support/transcript-samples.ts';
import { MAX_IMPORT_SEGMENTS, MAX_IMPORT_SPEAKERS } from '#shared/contracts/meetings.ts';
import { detectFormat } from './detect-format.ts';
import { parseTranscriptFile } from './parse-transcript.ts';

describe('a transcript file as a meeting', () => {
  it('names one speaker per name (any letter case), in order of first words, and lasts until the last segment ends', () => {
    const parsed = parseTranscriptFile('launch.vtt', TEAMS_VTT);
    if (!parsed.ok) throw new Error(parsed.problem.message);
    expect(parsed.value.format).toBe('vtt');
    expect(parsed.value.transcript.speakers).toEqual([
      { label: 'Speaker 1', displayName: 'Megan Bowen' },
      { label: 'Speaker 2', displayName: 'Alex Wilber' },
    ]);
    expect(parsed.value.transcript.segments.map((s) => s.speaker)).toEqual([0, 1, 0, 1]);
    expect(parsed.value.durationSeconds).toBe(66); // the last cue ends at 1:05.5
  });

  it('reads each format by its content, whatever the extension says', () => {
    expect(detectFormat('call.txt', ZOOM_VTT)).toBe('vtt');
    expect(detectFormat('call.txt', OTTER_SRT)).toBe('srt');
    expect(detectFormat('call', '00:00:01,000 --> 00:00:02,000\nHi\n')).toBe('srt');
    expect(detectFormat('call.txt', SPEAKER_BLOCKS_TXT)).toBe('text');
    expect(detectFormat('call.VTT', 'no header')).toBe('vtt');
    expect(detectFormat('call.srt', 'Jane: hi')).toBe('srt');
  });

  it('refuses an empty file and a binary one at line 1 and at the line of the binary data', () => {
    expect(parseTranscriptFile('empty.txt', ' \n\n')).toEqual({
      ok: false,
      problem: { line: 1, message: 'the file is empty; expected a WebVTT or SRT transcript, or lines like "Name: text"' },
    });
    expect(parseTranscriptFile('slides.txt', 'Jane: hi\nWade: hello\n%PDF\u0000\u0001')).toEqual({
      ok: false,
      problem: { line: 3, message: 'this is not a text file; expected a WebVTT, SRT or plain-text transcript' },
    });
  });

  it("hands on the reader's problem with its line", () => {
    expect(parseTranscriptFile('notes.srt', '1\nHello\n')).toMatchObject({ ok: false, problem: { line: 2 } });
  });

  it('refuses more lines, more speakers or a longer meeting than an import takes, saying the limit and what the file has', { timeout: 60_000 }, () => {
    const cues = (n: number, voice: (i: number) => string) =>
      `WEBVTT\n\n${Array.from({ length: n }, (_, i) => `00:00:${String(i % 60).padStart(2, '0')}.000 --> 00:00:${String(i % 60).padStart(2, '0')}.500\n<v ${voice(i)}>ok\n`).join('\n')}`;
    expect(MAX_IMPORT_SEGMENTS).toBe(20_000);
    expect(
      parseTranscriptFile(
        'many.vtt',
        cues(MAX_IMPORT_SEGMENTS + 1, () => 'Al'),
      ),
    ).toEqual({
      ok: false,
      problem: { message: 'The transcript has 20,001 lines; an import takes at most 20,000. Split it into parts.' },
    });
    expect(parseTranscriptFile('lines.txt', 'Al: ok\n'.repeat(20_001))).toEqual({
      ok: false,
      problem: { message: 'The transcript has 20,001 lines; an import takes at most 20,000. Split it into parts.' },
    });
    expect(
      parseTranscriptFile(
        'all.vtt',
        cues(MAX_IMPORT_SEGMENTS, () => 'Al'),
      ),
    ).toMatchObject({ ok: true });
    expect(MAX_IMPORT_SPEAKERS).toBe(200);
    expect(
      parseTranscriptFile(
        'crowd.vtt',
        cues(7000, (i) => `Person ${i}`),
      ),
    ).toEqual({
      ok: false,
      problem: { message: 'The transcript names 7,000 speakers; an import takes at most 200.' },
    });
    expect(
      parseTranscriptFile(
        'room.vtt',
        cues(200, (i) => `Person ${i}`),
      ),
    ).toMatchObject({ ok: true });
    // Untimed text is timed by its words (400 ms each): 1.6 million words would last 178 hours.
    expect(parseTranscriptFile('words.txt', 'a '.repeat(1_600_000))).toEqual({
      ok: false,
      problem: { message: 'The transcript runs for 178 hours; an import takes at most 168 hours.' },
    });
  });
});
