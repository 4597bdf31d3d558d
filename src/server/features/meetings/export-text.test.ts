import { describe, expect, it } from 'vitest';
import { exportableMeeting, READY_NOTES } from '#tests/support/export-meeting.ts';
import { clockStamp, toExportDocument } from './export-document.ts';
import { captionTime, renderSrt, renderTxt, renderVtt } from './export-text.ts';

const meeting = exportableMeeting();
const doc = toExportDocument(meeting, 'UTC');

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

  it("prints the meeting's date in the reader's time zone, named", () => {
    expect(toExportDocument(meeting, 'America/Los_Angeles').dateLabel).toBe('November 20, 2026 at 6:05 AM PST');
    expect(toExportDocument(meeting, 'America/New_York').dateLabel).toBe('November 20, 2026 at 9:05 AM EST');
  });
});

describe('renderers', () => {
  it('TXT: title, facts, summary, the notes with their times, then [mm:ss] Speaker: text', () => {
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
        'Key points',
        '----------',
        '- [00:01] Blue tested best.',
        '',
        'Action items',
        '------------',
        '- [01:05] Order the blue paint — Owner: Grace Hopper · Due: Fri, Nov 27, 2026 ("by Friday") · Open',
        '- [1:02:05] Tell the printers — Owner: Unassigned · Due: none · Done',
        '',
        'Decisions',
        '---------',
        '- [1:02:05] Ship the blue one.',
        '',
        'Topics',
        '------',
        '- [00:00–01:10] Colours',
        '- [01:00–1:02:07] Wrap-up',
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

describe('notes that are not ready', () => {
  const txtOf = (overrides: Parameters<typeof exportableMeeting>[0]) => renderTxt(toExportDocument(exportableMeeting(overrides), 'UTC'));
  const notesPart = (txt: string) => txt.slice(txt.indexOf('Participants:'), txt.indexOf('Transcript\n'));

  it('says in one line that they failed, and why, instead of printing empty sections', () => {
    const txt = txtOf({ insights: [], notes: { ...READY_NOTES, status: 'failed', failureReason: 'The notes service did not answer.', generatedAt: null } });
    expect(notesPart(txt)).toBe(
      [
        'Participants: Ada Lovelace, Grace Hopper',
        '',
        'Notes: not ready (failed: The notes service did not answer).',
        '',
        'Summary',
        '-------',
        'We picked the blue one.',
        '',
        '',
      ].join('\n'),
    );
    expect(txt).not.toMatch(/Key points|Action items|Decisions|Topics/);
    expect(txt).toContain('[00:01] Ada Lovelace: Hello there.');
  });

  it('says they are queued, being written (part N of M) or off, and prints no summary that is not there', () => {
    const line = (notes: Partial<typeof READY_NOTES>, meeting: Parameters<typeof exportableMeeting>[0] = {}) =>
      toExportDocument(exportableMeeting({ insights: [], summary: null, notes: { ...READY_NOTES, ...notes }, ...meeting }), 'UTC').notes.statusLine;
    expect(line({ status: 'queued' })).toBe('Notes: not ready (queued).');
    expect(line({ status: 'running', progress: { part: 2, parts: 5 } })).toBe('Notes: not ready (being written, part 2 of 5).');
    expect(line({ status: 'running' })).toBe('Notes: not ready (being written).');
    expect(line({ status: 'off' })).toBe('Notes: off (none were written for this meeting).');
    expect(line({ status: 'off' }, { status: 'processing', segments: [] })).toBe('Notes: not ready (the transcript is not ready yet).');
    expect(line({ status: 'off' }, { status: 'failed', segments: [] })).toBe('Notes: not ready (the transcription failed).');
    expect(line({})).toBe('Notes: no key points, action items, decisions or topics were found.');
    expect(txtOf({ insights: [], summary: null, notes: { ...READY_NOTES, status: 'queued' } })).not.toContain('Summary');
  });

  it('keeps earlier notes while new ones are written, and says which they are', () => {
    const doc = toExportDocument(exportableMeeting({ notes: { ...READY_NOTES, status: 'running' } }), 'UTC');
    expect(doc.notes.statusLine).toBe('Notes: not ready (being written). The notes below were written before.');
    expect(doc.notes.sections.map((s) => s.title)).toEqual(['Key points', 'Action items', 'Decisions', 'Topics']);
    expect(toExportDocument(exportableMeeting({ notes: { ...READY_NOTES, outOfDate: true } }), 'UTC').notes.statusLine).toBe(
      'Notes: written before the transcript last changed; they may be out of date.',
    );
  });

  it('leaves dismissed items out', () => {
    const doc = toExportDocument(exportableMeeting(), 'UTC');
    const texts = doc.notes.sections.flatMap((s) => s.items.map((i) => i.text));
    expect(texts).toContain('Order the blue paint');
    expect(texts).not.toContain('Paint it red');
  });
});
