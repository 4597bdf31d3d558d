import { describe, expect, it } from 'vitest';
import type { RecognizedWord } from './engines/engine.ts';
import { parsePocketsphinxOutput } from './engines/pocketsphinx-output.ts';
import type { AttributedSegment } from './pipeline-types.ts';
import { isFillerWord, postProcessSegments, punctuate, removeFillers } from './post-process.ts';

/** A segment as an engine gives it: words 500 ms apart, each with its own confidence. */
function segment(text: string, options: { startMs?: number; speaker?: number; confidences?: number[] } = {}): AttributedSegment {
  const startMs = options.startMs ?? 0;
  const words: RecognizedWord[] = text
    .split(' ')
    .map((word, i) => ({ text: word, startMs: startMs + i * 500, endMs: startMs + i * 500 + 400, confidence: options.confidences?.[i] ?? 0.8 }));
  return { startMs, endMs: words.at(-1)!.endMs, text, words, confidence: 0.8, speaker: options.speaker ?? 0 };
}

const BOTH = { punctuation: true, fillerWordRemoval: true };
const PUNCTUATION = { punctuation: true, fillerWordRemoval: false };
const FILLERS = { punctuation: false, fillerWordRemoval: true };
const NEITHER = { punctuation: false, fillerWordRemoval: false };

describe('punctuate', () => {
  it('gives bare engine text sentence case and a full stop', () => {
    expect(punctuate('we should ship on friday')).toBe('We should ship on friday.');
  });

  it('writes "I" and its contractions with a capital, wherever they are', () => {
    expect(punctuate("i think i'm right and i've said so but i'd wait")).toBe("I think I'm right and I've said so but I'd wait.");
    expect(punctuate('it is in the inbox')).toBe('It is in the inbox.'); // "it", "in", "inbox" are not "i"
  });

  it('ends an utterance that opens like a question with a question mark', () => {
    expect(punctuate('what is the deadline')).toBe('What is the deadline?');
    expect(punctuate('how many people signed up')).toBe('How many people signed up?');
    expect(punctuate('can we move the meeting')).toBe('Can we move the meeting?');
    expect(punctuate('is it ready')).toBe('Is it ready?');
    expect(punctuate("what's next")).toBe("What's next?");
  });

  it('does not take a statement that merely starts with a question word for a question', () => {
    expect(punctuate('when we met he said yes')).toBe('When we met he said yes.');
    expect(punctuate('how we ship matters')).toBe('How we ship matters.');
    expect(punctuate('do the review first')).toBe('Do the review first.');
  });

  it('leaves text that already has punctuation exactly as it is', () => {
    for (const text of ['Hello, world.', 'yes, we can', 'done.', 'Really?', 'note: later']) expect(punctuate(text)).toBe(text);
  });

  it('keeps capitals the engine gave (names) and apostrophes inside words', () => {
    expect(punctuate("priya said we don't need OpenAI")).toBe("Priya said we don't need OpenAI.");
  });
});

describe('removeFillers', () => {
  it('drops hesitations from bare text', () => {
    expect(removeFillers('um so we uh need the hmm report')).toBe('so we need the report');
  });

  it('keeps real words that only look like fillers, and answers like "uh-huh"', () => {
    expect(removeFillers('i like the errand and the ahead um plan')).toBe('i like the errand and the ahead plan');
    expect(removeFillers('uh-huh mm-hmm that works')).toBe('uh-huh mm-hmm that works');
    for (const word of ['like', 'so', 'well', 'you', 'know', 'uh-huh', 'ahem', 'umbrella', 'her', 'erase', 'I']) expect(isFillerWord(word), word).toBe(false);
    for (const word of ['um', 'Um,', 'UH', 'er', 'erm', 'ah', 'hmm', 'Hmm...', 'mm']) expect(isFillerWord(word), word).toBe(true);
  });

  it('in punctuated text, moves the capital to the next word and keeps the sentence’s own punctuation', () => {
    expect(removeFillers('Um, so we start. Uh, then we ship.')).toBe('So we start. Then we ship.');
    expect(removeFillers('We were, uh, nearly ready.')).toBe('We were nearly ready.');
    expect(removeFillers('We are ready, um.')).toBe('We are ready.');
    expect(removeFillers('We are ready, um')).toBe('We are ready');
    expect(removeFillers('Is it done? Hmm. I think so.')).toBe('Is it done? I think so.');
  });

  it('leaves lowercase (uncased) text lowercase', () => {
    expect(removeFillers('um so we start')).toBe('so we start');
  });
});

describe('postProcessSegments', () => {
  it('changes nothing with both settings off', () => {
    const input = [segment('um i mean it is uh fine')];
    expect(postProcessSegments(input, NEITHER)).toEqual(input);
  });

  it('Filler Word Removal: drops filler words and keeps every other word with its own timing', () => {
    const input = segment('so um we uh ship', { startMs: 10_000, confidences: [0.9, 0.1, 0.7, 0.2, 0.8] });
    const [out] = postProcessSegments([input], FILLERS);
    expect(out?.text).toBe('so we ship');
    expect(out?.words).toEqual([input.words[0], input.words[2], input.words[4]]);
    expect(out?.confidence).toBeCloseTo((0.9 + 0.7 + 0.8) / 3);
    expect(out).toMatchObject({ startMs: 10_000, endMs: 12_400, speaker: 0 });
  });

  it('narrows a segment that opened or closed with a filler to the words that remain', () => {
    const [out] = postProcessSegments([segment('uh we ship hmm', { startMs: 2_000 })], FILLERS);
    expect(out).toMatchObject({ text: 'we ship', startMs: 2_500, endMs: 3_400 });
  });

  it('drops a segment that was nothing but hesitation, keeping the others and their speakers', () => {
    const out = postProcessSegments([segment('hello there', { speaker: 0 }), segment('um uh hmm', { speaker: 1 }), segment('right', { speaker: 1 })], FILLERS);
    expect(out.map((s) => [s.text, s.speaker])).toEqual([
      ['hello there', 0],
      ['right', 1],
    ]);
  });

  it('Automatic Punctuation: sentence case and end marks for a bare engine, nothing for a punctuated one', () => {
    const out = postProcessSegments([segment('i think we are done'), segment('what is left'), segment('Already punctuated, thanks.')], PUNCTUATION);
    expect(out.map((s) => s.text)).toEqual(['I think we are done.', 'What is left?', 'Already punctuated, thanks.']);
    expect(out[0]?.words.map((w) => w.text)).toEqual(['i', 'think', 'we', 'are', 'done']); // the engine's words and timings stay
  });

  it('both: fillers go first, so the sentence starts at the first real word', () => {
    const out = postProcessSegments([segment('um what is uh the plan'), segment('uh'), segment('Um, we ship, er, friday.')], BOTH);
    expect(out.map((s) => s.text)).toEqual(['What is the plan?', 'We ship friday.']);
  });

  it('works on real pocketsphinx output, markers and pronunciation variants included', () => {
    const output = [
      'um we should go and test it',
      '<s> 0.000 0.120 0.990',
      'um 0.120 0.400 0.610',
      'we 0.400 0.620 0.950',
      '[NOISE] 0.620 0.700 0.900',
      'should 0.700 1.010 0.930',
      'go 1.010 1.300 0.970',
      'and(2) 1.300 1.450 0.880',
      'test 1.450 1.800 0.990',
      'it 1.800 2.000 0.990',
      '</s> 2.000 2.100 1.000',
    ].join('\n');
    const segments = parsePocketsphinxOutput(output).map((s) => ({ ...s, speaker: 0 }));
    const [out] = postProcessSegments(segments, BOTH);
    expect(out?.text).toBe('We should go and test it.');
    expect(out?.words.map((w) => w.text)).toEqual(['we', 'should', 'go', 'and', 'test', 'it']);
    expect(out?.startMs).toBe(400);
    expect(out?.endMs).toBe(2000);
  });

  it('handles empty input and a segment without timed words', () => {
    expect(postProcessSegments([], BOTH)).toEqual([]);
    const untimed: AttributedSegment = { startMs: 0, endMs: 1000, text: 'um hello', words: [], confidence: 0.5, speaker: 0 };
    expect(postProcessSegments([untimed], BOTH)).toEqual([{ ...untimed, text: 'Hello.' }]);
  });

  it('does not change the segments it is given', () => {
    const input = segment('um hello');
    const copy = structuredClone(input);
    postProcessSegments([input], BOTH);
    expect(input).toEqual(copy);
  });
});
