import { describe, expect, it } from 'vitest';
import { BAD_TIMESTAMP_VTT, TEAMS_VTT, ZOOM_VTT } from '#tests/support/transcript-samples.ts';
import { parseVtt } from './parse-cues.ts';

const linesOf = (content: string) => {
  const outcome = parseVtt(content);
  if (!outcome.ok) throw new Error(`expected lines, got ${JSON.stringify(outcome.problem)}`);
  return outcome.lines;
};
const problemOf = (content: string) => {
  const outcome = parseVtt(content);
  if (outcome.ok) throw new Error('expected a problem');
  return outcome.problem;
};

describe('WebVTT import', () => {
  it('reads a Teams transcript: voice tags name the speakers, text over two lines is one line, entities decoded', () => {
    expect(linesOf(TEAMS_VTT)).toEqual([
      { speaker: 'Megan Bowen', startMs: 3120, endMs: 7640, text: "Good morning, everyone. Let's review the launch checklist before Thursday." },
      { speaker: 'Alex Wilber', startMs: 8010, endMs: 12_300, text: 'The store listing is approved & the screenshots are uploaded.' },
      { speaker: 'Megan Bowen', startMs: 12_900, endMs: 16_020, text: 'Good. We decided to ship on Thursday morning.' },
      { speaker: 'alex wilber', startMs: 62_000, endMs: 65_500, text: 'I will post the release notes after the launch.' },
    ]);
  });

  it('reads a Zoom transcript: the "Name: " prefix of each cue is its speaker', () => {
    const lines = linesOf(ZOOM_VTT);
    expect(lines.map((l) => l.speaker)).toEqual(['Jane Cooper', 'Wade Warren', 'Jane Cooper', 'Wade Warren']);
    expect(lines[0]).toEqual({ speaker: 'Jane Cooper', startMs: 2310, endMs: 6150, text: "Okay, let's get started. Thanks everyone for joining." });
    expect(lines.at(-1)).toMatchObject({ startMs: 18_120, endMs: 20_040, text: 'Yes, I will send it to legal today.' });
  });

  it('keeps the voice of the cue before for a cue without one, and strips styling tags and classes', () => {
    const lines = linesOf(`WEBVTT

00:00:01.000 --> 00:00:03.000
<v.loud Jane Cooper>Welcome <i>back</i>

00:00:03.500 --> 00:00:05.000
everyone.
`);
    expect(lines).toEqual([
      { speaker: 'Jane Cooper', startMs: 1000, endMs: 3000, text: 'Welcome back' },
      { speaker: 'Jane Cooper', startMs: 3500, endMs: 5000, text: 'everyone.' },
    ]);
  });

  it('splits a cue with two voices into two lines sharing its time by their words', () => {
    const lines = linesOf('WEBVTT\n\n00:00:10.000 --> 00:00:14.000\n<v Ann>Ready?</v> <v Ben>Yes, all set here.</v>\n');
    expect(lines).toEqual([
      { speaker: 'Ann', startMs: 10_000, endMs: 10_800, text: 'Ready?' }, // 1 word of 5
      { speaker: 'Ben', startMs: 10_800, endMs: 14_000, text: 'Yes, all set here.' },
    ]);
  });

  it('leaves the speaker unnamed when the file names no one, and reads "Note: …" in an unnamed file as words', () => {
    const lines = linesOf(
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nNote: the room is booked.\n\n00:00:02.000 --> 00:00:03.000\nThanks.\n\n00:00:03.000 --> 00:00:04.000\nSee you.\n',
    );
    expect(lines.map((l) => [l.speaker, l.text])).toEqual([
      [null, 'Note: the room is booked.'],
      [null, 'Thanks.'],
      [null, 'See you.'],
    ]);
  });

  it('takes cues out of order in time order, and an end before its start as a zero-length line', () => {
    const lines = linesOf('WEBVTT\n\n00:00:05.000 --> 00:00:04.000\n<v A>second\n\n00:00:01.000 --> 00:00:02.000\n<v B>first\n');
    expect(lines.map((l) => [l.text, l.startMs, l.endMs])).toEqual([
      ['first', 1000, 2000],
      ['second', 5000, 5000],
    ]);
  });

  it('refuses a cue with a broken timestamp at its line, quoting it', () => {
    expect(problemOf(BAD_TIMESTAMP_VTT)).toEqual({
      line: 10,
      message: 'expected a timestamp like 00:01:02.000 --> 00:01:05.000, found "00:00:1x.000 --> 00:00:12.000"',
    });
  });

  it('refuses text where a timestamp belongs, at the text line', () => {
    const content = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello.\n\nJane said this without a time\n\n00:00:03.000 --> 00:00:04.000\nBye.\n';
    expect(problemOf(content)).toEqual({ line: 6, message: 'expected a timestamp like 00:01:02.000 --> 00:01:05.000, found "Jane said this without a time"' });
    const afterId = 'WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000\nHello.\n\n2\nno timing here\nmore text\n';
    expect(problemOf(afterId)).toEqual({ line: 8, message: 'expected a timestamp like 00:01:02.000 --> 00:01:05.000, found "no timing here"' });
  });

  it('refuses a file without the WEBVTT header at line 1, and one with no cues at its last line', () => {
    expect(problemOf('00:00:01.000 --> 00:00:02.000\nHello.\n')).toEqual({ line: 1, message: 'expected the file to start with WEBVTT' });
    expect(problemOf('WEBVTT\n\nNOTE exported by a tool\n')).toEqual({
      line: 3,
      message: 'expected a cue (a timestamp like 00:01:02.000 --> 00:01:05.000, then the words spoken), but the file has none',
    });
  });

  it('refuses a time past the longest meeting (168 hours) at its line, quoting it', () => {
    const content = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v A>Hello.\n\n9999999999:00:00.000 --> 9999999999:00:01.000\n<v A>Bye.\n';
    expect(problemOf(content)).toEqual({
      line: 6,
      message: 'expected times within 168 hours (the longest meeting), found "9999999999:00:00.000 --> 9999999999:00:01.000"',
    });
    expect(problemOf('WEBVTT\n\n167:59:59.000 --> 168:00:00.001\nLate.\n')).toMatchObject({ line: 3 });
    expect(linesOf('WEBVTT\n\n167:59:59.000 --> 168:00:00.000\nLate.\n')).toEqual([{ speaker: null, startMs: 604_799_000, endMs: 604_800_000, text: 'Late.' }]);
  });

  it('refuses tags nested deeper than any caption styles its words, at the cue text line, however deep', () => {
    const nested = (depth: number) =>
      `WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v A>Hi.\n\n00:00:03.000 --> 00:00:04.000\n${'<b>'.repeat(depth)}deep${'</b>'.repeat(depth)}\n`;
    expect(problemOf(nested(1_000_000))).toEqual({ line: 7, message: "expected tags nested at most 32 deep in a cue's text, found 1,000,000" });
    expect(linesOf(nested(32)).map((l) => l.text)).toEqual(['Hi.', 'deep']);
    // An end tag that names another tag closes nothing (the parser's rule): still nested.
    const mismatched = `WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n${'<i></b>'.repeat(100_000)}deep\n`;
    expect(problemOf(mismatched)).toEqual({ line: 4, message: "expected tags nested at most 32 deep in a cue's text, found 100,000" });
  });
});
