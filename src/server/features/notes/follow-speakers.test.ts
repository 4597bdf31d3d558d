import { describe, expect, it } from 'vitest';
import { followSpeakers, type SpeakerAssignedItem } from './follow-speakers.ts';

const speakers = [
  { id: 'ana', label: 'Speaker 1', name: 'Ana' },
  { id: 'sam', label: 'Speaker 2', name: null },
];
const item = (over: Partial<SpeakerAssignedItem>): SpeakerAssignedItem => ({
  id: 'i',
  assignee: 'Ana',
  speakerId: 'ana',
  said: false,
  segmentIds: ['l1'],
  ...over,
});

describe('followSpeakers', () => {
  it("gives an I-will item to whoever says its first cited line now, a named speaker's item to that speaker's name", () => {
    const segments = [
      { id: 'l1', speakerId: 'sam' },
      { id: 'l2', speakerId: 'ana' },
    ];
    expect(followSpeakers([item({ said: true })], { speakers, segments })).toEqual([{ id: 'i', assignee: 'Speaker 2', speakerId: 'sam' }]);
    // Named: the line moving changes nothing; Ana is still Ana.
    expect(followSpeakers([item({})], { speakers, segments })).toEqual([]);
    expect(followSpeakers([item({ assignee: 'Anna' })], { speakers, segments })).toEqual([{ id: 'i', assignee: 'Ana', speakerId: 'ana' }]);
  });

  it('follows a merge, and leaves an item whose speaker is gone with nowhere to follow', () => {
    const segments = [{ id: 'l1', speakerId: 'sam' }];
    const gone = item({ speakerId: 'zoe', assignee: 'Zoe' });
    expect(followSpeakers([gone], { speakers, segments }, { speakerId: 'zoe', intoSpeakerId: 'sam' })).toEqual([
      { id: 'i', assignee: 'Speaker 2', speakerId: 'sam' },
    ]);
    expect(followSpeakers([gone], { speakers, segments })).toEqual([]);
  });
});
