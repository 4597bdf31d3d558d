import { describe, expect, it } from 'vitest';
import { makeTranscript } from '#tests/support/notes-transcript.ts';
import { generateLocalNotes } from './generate-local-notes.ts';

const decisionsOf = (...texts: string[]) => generateLocalNotes(makeTranscript(texts.map((t) => ['spk-ana', t] as const))).decisions;

describe('local notes: decisions', () => {
  it.each([
    'We decided to use a rubber case for the remote.',
    "So we've agreed on a yellow rubber case.",
    "Let's go with the kinetic batteries then.",
    "Okay, we're going with the scroll wheel design.",
    'The final decision is a curved titanium case.',
  ])('"%s" is a decision, cited and cleaned', (text) => {
    const [decision, ...rest] = decisionsOf(text);
    expect(rest).toEqual([]);
    expect(decision?.segmentIds).toEqual(['s1']);
    expect(decision?.text).not.toMatch(/^(So|Okay)\b/);
  });

  it.each([
    'Maybe we should go with the kinetic batteries.',
    'I suggest we use a rubber case for the remote.',
    'What about the scroll wheel design?',
    'Shall we go with the kinetic batteries?',
    "We haven't decided on the case material yet.",
    'We could go with the kinetic batteries.',
    'If we decided on rubber, the case would be cheaper.',
  ])('"%s" is not a decision', (text) => {
    expect(decisionsOf(text)).toEqual([]);
  });

  it('one decision said twice is noted once, where it was first said', () => {
    const decisions = decisionsOf('We decided to use a rubber case for the remote.', 'Right, so we decided to use the rubber case for the remote.');
    expect(decisions).toEqual([{ text: 'We decided to use a rubber case for the remote.', segmentIds: ['s1'] }]);
  });
});
