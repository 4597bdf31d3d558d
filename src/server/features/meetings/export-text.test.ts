import { describe, expect, it } from 'vitest';
import { clockStamp, toExportDocument } from './export-document.ts';
import { captionTime, renderSrt, renderTxt, renderVtt } from './export-text.ts';

const SPEAKER_A = '00000000-0000-4000-8000-00000000000a';
const SPEAKER_B = '00000000-0000-4000-8000-00000000000b';
const seg = (n: number, speakerId: string | null, startMs: number, endMs: number, text: string) => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  speakerId,
  startMs,
  endMs,
  text,
  confidence: null,
});

const meeting = {
  title: 'Design <review> & sync',
  startedAt: '2026-11-20T14:05:00.000Z',
  durationSeconds: 3725,
  participants: ['Ada Lovelace', 'Grace Hopper'],
  summary: 'We picked the blue one.',
  speakers: [
    { id: SPEAKER_A, label: 'Speaker 1', displayName: 'Ada Lovelace' },
    { id: SPEAKER_B, label: 'Speaker 2', displayName: null },
  ],
  segments: [
    seg(1, SPEAKER_A, 1000, 4500, 'Hello\nthere.'),
    seg(2, SPEAKER_B, 65_250, 70_000, 'Use <b> & stop --> now'),
    seg(3, null, 3_725_000, 3_725_000, 'Bye.'),
    seg(4, SPEAKER_A, 3_726_000, 3_727_000, '   '),
  ],
};
const doc = toExportDocument(meeting);

describe('timestamps', () => {
  it('formats SRT with a comma and WebVTT with a dot before the milliseconds', () => {
    expect(captionTime(1000, ',')).toBe('00:00:01,000');
    expect(captionTime(1000, '.')).toBe('00:00:01.000');
    expect(captionTime(3_723_045, ',')).toBe('01:02:03,045');
  });

  it('prints transcript clocks as mm:ss, and h:mm:ss past an hour', () => {
    expect(clockStamp(65_999)).toBe('01:05');
    expect(clockStamp(3_725_000)).toBe('1:02:05');
  });
});

describe('the export document', () => {
  it('uses display names, falls back to labels, and drops empty lines', () => {
    expect(doc.lines.map((l) => l.speaker)).toEqual(['Ada Lovelace', 'Speaker 2', null]);
    expect(doc.lines[0]?.text).toBe('Hello there.');
    expect(doc.dateLabel).toBe('November 20, 2026 at 2:05 PM UTC');
    expect(doc.durationLabel).toBe('1h 2m');
  });
});

describe('renderers', () => {
  it('TXT: title, facts, summary, then [mm:ss] Speaker: text', () => {
    expect(renderTxt(doc)).toBe(
      [
        'Design <review> & sync',
        '======================',
        '',
        'Date: November 20, 2026 at 2:05 PM UTC',
        'Duration: 1h 2m',
        'Participants: Ada Lovelace, Grace Hopper',
        '',
        'Summary',
        '-------',
        'We picked the blue one.',
        '',
        'Transcript',
        '----------',
        '[00:01] Ada Lovelace: Hello there.',
        '[01:05] Speaker 2: Use <b> & stop --> now',
        '[1:02:05] Bye.',
        '',
      ].join('\n'),
    );
  });

  it('SRT: numbered cues with comma timestamps; a zero-length cue lasts a second', () => {
    expect(renderSrt(doc)).toBe(
      [
        '1',
        '00:00:01,000 --> 00:00:04,500',
        'Ada Lovelace: Hello there.',
        '',
        '2',
        '00:01:05,250 --> 00:01:10,000',
        'Speaker 2: Use <b> & stop --> now',
        '',
        '3',
        '01:02:05,000 --> 01:02:06,000',
        'Bye.',
        '',
      ].join('\n'),
    );
  });

  it('WebVTT: header, numbered cues with dot timestamps, voice tags and escaped markup', () => {
    expect(renderVtt(doc)).toBe(
      [
        'WEBVTT',
        '',
        '1',
        '00:00:01.000 --> 00:00:04.500',
        '<v Ada Lovelace>Hello there.',
        '',
        '2',
        '00:01:05.250 --> 00:01:10.000',
        '<v Speaker 2>Use &lt;b&gt; &amp; stop --&gt; now',
        '',
        '3',
        '01:02:05.000 --> 01:02:06.000',
        'Bye.',
        '',
      ].join('\n'),
    );
  });
});
