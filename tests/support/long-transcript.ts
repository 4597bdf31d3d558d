/**
 * Generated transcripts as long as a real meeting gets, for the tests and benches that show the
 * server answering while it renders or reads one: a WebVTT file of cues every three seconds, four
 * named speakers taking turns, each cue's words numbered so a test can find any one of them.
 */
const SPEAKERS = ['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'Edsger Dijkstra'];

const clock = (seconds: number) =>
  [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60].map((n) => String(n).padStart(2, '0')).join(':') + '.000';

/** The words of cue `n`, as the file and every export print them. */
export const cueWords = (n: number) => `Point ${n} of the roadmap review: we agreed the budget holds and the launch moves to the next quarter.`;

/** The speaker of cue `n`. */
export const cueSpeaker = (n: number) => SPEAKERS[n % SPEAKERS.length]!;

/** A WebVTT transcript of `cues` cues, one every three seconds (1,800 cues: a two-hour meeting). */
export function longVtt(cues: number): string {
  const blocks = ['WEBVTT', ''];
  for (let n = 0; n < cues; n++) blocks.push(`${clock(n * 3)} --> ${clock(n * 3 + 2)}`, `<v ${cueSpeaker(n)}>${cueWords(n)}`, '');
  return blocks.join('\n');
}
