import { describe, expect, it } from 'vitest';
import { NAMED_LINES_TXT, SPEAKER_BLOCKS_TXT } from '#tests/support/transcript-samples.ts';
import { parsePlainText } from './parse-plain-text.ts';
import { MS_PER_WORD } from './transcript-lines.ts';

const linesOf = (content: string) => {
  const outcome = parsePlainText(content);
  if (!outcome.ok) throw new Error(`expected lines, got ${JSON.stringify(outcome.problem)}`);
  return outcome.lines;
};

describe('plain-text import', () => {
  it('reads "Name: text" lines, a wrapped line joining the line before, timed by words at 150 a minute', () => {
    const lines = linesOf(NAMED_LINES_TXT);
    expect(lines.map((l) => [l.speaker, l.text])).toEqual([
      ['Sarah Miller', "Let's start with the budget for the spring campaign."],
      ['Omar Haddad', 'The agency quoted forty thousand for the video work, which is more than we planned for.'],
      ['Sarah Miller', 'We agreed to cap the video budget at thirty thousand.'],
    ]);
    expect(MS_PER_WORD).toBe(400);
    expect(lines.map((l) => [l.startMs, l.endMs])).toEqual([
      [0, 9 * 400],
      [9 * 400, 9 * 400 + 16 * 400],
      [25 * 400, 25 * 400 + 10 * 400],
    ]);
  });

  it('reads Otter/Teams blocks under "Name  m:ss": each lasts until the next, the last as long as its words', () => {
    expect(linesOf(SPEAKER_BLOCKS_TXT)).toEqual([
      { speaker: 'Jane Cooper', startMs: 2000, endMs: 15_000, text: "Okay, let's get started. Thanks everyone for joining." },
      { speaker: 'Wade Warren', startMs: 15_000, endMs: 64_000, text: 'Thanks Jane. I finished the pricing page draft yesterday. It is in the shared folder.' },
      { speaker: 'Jane Cooper', startMs: 64_000, endMs: 64_000 + 3 * 400, text: 'Great, thank you.' },
    ]);
  });

  it('reads block headers with hours, brackets, a tab, or one space before a full h:mm:ss time', () => {
    const lines = linesOf('[Ann Lee] 01:00:05\nFirst.\n\nBen Ode\t1:00:09.500\nSecond.\n\nCara Diaz 01:00:12\nThird.\n');
    expect(lines.map((l) => [l.speaker, l.startMs])).toEqual([
      ['Ann Lee', 3_605_000],
      ['Ben Ode', 3_609_500],
      ['Cara Diaz', 3_612_000],
    ]);
  });

  it('reads text with no speakers as paragraphs, nobody named', () => {
    expect(linesOf('The meeting opened with the budget.\nIt ran long.\n\nThen we closed.\n').map((l) => [l.speaker, l.text])).toEqual([
      [null, 'The meeting opened with the budget. It ran long.'],
      [null, 'Then we closed.'],
    ]);
  });

  it('refuses a block time that cannot be, and times going backwards, at their lines', () => {
    expect(parsePlainText('Jane Cooper  0:02\nHello.\n\nWade Warren  0:75\nHi.\n')).toEqual({
      ok: false,
      problem: { line: 4, message: 'expected a time like 00:01:02 after the speaker\'s name, found "Wade Warren  0:75"' },
    });
    expect(parsePlainText('Jane Cooper  1:02\nHello.\n\nWade Warren  0:30\nHi.\n')).toEqual({
      ok: false,
      problem: { line: 4, message: 'expected a time no earlier than the block before it (0:30 comes before 1:02)' },
    });
  });

  it('refuses blocks with nothing said under any of them', () => {
    expect(parsePlainText('Jane Cooper  0:02\n\nWade Warren  0:05\n')).toMatchObject({ ok: false, problem: { line: 4 } });
  });
});
