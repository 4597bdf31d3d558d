import { describe, expect, it } from 'vitest';
import { splitSentences } from './split-sentences.ts';

const clean = (text: string) => splitSentences([{ id: 's1', speakerId: null, startMs: 0, endMs: 1000, text }]).map((s) => s.text);

describe('local notes: cleaning spoken sentences', () => {
  it.each([
    ['Um, I I think we should uh go with the red one.', 'I think we should go with the red one.'],
    ['So, you know, the battery is the the main cost.', 'The battery is the main cost.'],
    ['The main the main focus of this meeting is the design.', 'The main focus of this meeting is the design.'],
    ['You said uh targ target groups.', 'You said target groups.'],
    ['We could pump up the vo pump up the volume.', 'We could pump up the volume.'],
    ['It should be in the sh shared documents folder.', 'It should be in the shared documents folder.'],
    ['Okay, yeah, and then we need to, yeah, we need to pick a colour', 'We need to pick a colour.'],
    ['I mean, the case will be made of rubber, you know.', 'The case will be made of rubber.'],
    ['Hmm, mm-hmm, uh-huh, well the chip is cheap', 'The chip is cheap.'],
    // A hyphen inside a word is spelling: "touchpad" is a word nobody said, and no citation finds it.
    ['We can uh do a touch-pad on our remote - a good-looking one.', 'We can do a touch-pad on our remote a good-looking one.'],
    ['We also want to look at our remote control, so.', 'We also want to look at our remote control.'],
    ["We decided, 'cause it's not on our list.", "We decided, cause it's not on our list."],
  ])('"%s" → "%s"', (said, written) => {
    expect(clean(said)).toEqual([written]);
  });

  it('keeps words that only look like fillers or repeats', () => {
    expect(clean('You know what we need? A cheaper chip.')).toEqual(['You know what we need?', 'A cheaper chip.']);
    expect(clean('We went to together with the team.')).toEqual(['We went to together with the team.']);
  });

  it('leaves nothing of a turn that was only hesitation and back-channel', () => {
    expect(clean('Um. Uh, yeah. Okay. Mm-hmm.')).toEqual(['', '', '', '']);
  });
});
