import { describe, expect, it } from 'vitest';
import type { NotesDraft, NotesTranscript } from '../../notes-types.ts';
import { makeTranscript } from '#tests/support/notes-transcript.ts';
import { syntheticMeeting } from '#tests/support/notes-transcripts.ts';
import { LAUNCH_TASKS, launchMeeting } from '#tests/support/launch-meeting.ts';
import { checkCitations, checkCitedItem, indexTranscript } from '../../citations.ts';
import { checkedSummary, generateLocalNotes } from './generate-local-notes.ts';

const EMPTY_NOTES: NotesDraft = { summary: '', summarySentences: [], keyPoints: [], topics: [], actionItems: [], decisions: [] };

function citedIds(notes: NotesDraft): string[] {
  return [...notes.keyPoints, ...notes.topics, ...notes.actionItems, ...notes.decisions].flatMap((item) => item.segmentIds);
}

describe('local notes: the engine', () => {
  it('reports each of its five stages in order', () => {
    const calls: Array<[number, number]> = [];
    generateLocalNotes(makeTranscript([['spk-ana', "I'll send the budget to finance."]]), { onProgress: (part, parts) => calls.push([part, parts]) });
    expect(calls).toEqual([
      [1, 5],
      [2, 5],
      [3, 5],
      [4, 5],
      [5, 5],
    ]);
  });

  it('gives empty notes for an empty transcript, and still reports its stages', () => {
    const calls: number[] = [];
    expect(generateLocalNotes(makeTranscript([]), { onProgress: (part) => calls.push(part) })).toEqual(EMPTY_NOTES);
    expect(calls).toEqual([1, 2, 3, 4, 5]);
  });

  it('gives empty notes for a transcript of hesitations alone', () => {
    expect(
      generateLocalNotes(
        makeTranscript([
          ['spk-ana', 'Um.'],
          ['spk-sam', 'Uh, yeah.'],
          ['spk-3', 'Mm-hmm.'],
        ]),
      ),
    ).toEqual(EMPTY_NOTES);
  });

  it('notes a one-segment meeting with one topic over the whole of it', () => {
    const notes = generateLocalNotes(makeTranscript([['spk-ana', "The new remote control needs a rubber case. I'll ask the supplier for prices by Friday."]]));
    expect(notes.topics).toEqual([expect.objectContaining({ startMs: 0, endMs: 5000, segmentIds: ['s1'] })]);
    expect(notes.actionItems.map((i) => [i.text, i.assignee, i.due])).toEqual([['Ask the supplier for prices', 'Ana', '2025-03-07']]);
  });

  it('does not name a topic after when things happen: a stand-up about a release moving to Friday is about the release', () => {
    const notes = generateLocalNotes(
      makeTranscript([
        ['spk-ana', 'The release moves to Friday.'],
        ['spk-sam', 'Friday works for the release notes too.'],
        ['spk-ana', "So Friday it is. I'll tell the support team on Friday morning."],
      ]),
    );
    expect(notes.topics).toHaveLength(1);
    expect(notes.topics[0]!.text).not.toMatch(/friday|morning/i);
    expect(notes.summary).not.toMatch(/^The meeting was about friday/i);
  });

  it('works without any speaker, named or not', () => {
    const transcript: NotesTranscript = { ...makeTranscript([[null, "I'll update the project plan."]]), speakers: [] };
    expect(generateLocalNotes(transcript).actionItems).toMatchObject([{ text: 'Update the project plan', assignee: null, assigneeSpeakerId: null }]);
  });

  it('survives a very long unpunctuated segment, and cites only segments that exist', () => {
    const rambling = Array.from({ length: 3000 }, (_, i) => `we talked about the battery case number ${i} and the chip`).join(' ');
    const transcript = makeTranscript([
      ['spk-ana', rambling],
      ['spk-sam', 'Okay.'],
    ]);
    const notes = generateLocalNotes(transcript);
    expect(citedIds(notes).every((id) => id === 's1' || id === 's2')).toBe(true);
    expect(notes.summary.split(/\s+/).length).toBeLessThanOrEqual(150);
  });

  it.each([
    ['German', 'Wir müssen das Budget bis Freitag an die Finanzabteilung schicken. Das Gehäuse wird aus Gummi sein.'],
    ['Chinese', '我们需要在星期五之前把预算发给财务部。外壳将由橡胶制成。'],
    ['garbage', 'asdf ☃☃☃ 1234 !!! ??? ... @@@ ,,, 0x0 \u0000 \uFFFD'],
    ['punctuation only', '. . . , , ? ! -- ...'],
  ])('never throws on %s text', (_, text) => {
    const transcript = makeTranscript([
      ['spk-ana', text],
      ['spk-3', text],
    ]);
    const notes = generateLocalNotes(transcript);
    expect(citedIds(notes).every((id) => id === 's1' || id === 's2')).toBe(true);
  });

  it('tolerates segments of no duration and speakers it does not know', () => {
    const transcript = makeTranscript([
      ['nobody', "I'll order the batteries for the prototype."],
      ['spk-ana', 'The prototype needs a rubber case and a scroll wheel.'],
    ]);
    const zero = { ...transcript, segments: transcript.segments.map((s) => ({ ...s, startMs: 0, endMs: 0 })) };
    const notes = generateLocalNotes(zero);
    expect(notes.actionItems).toMatchObject([{ text: 'Order the batteries for the prototype', assignee: null, assigneeSpeakerId: null }]);
    expect(notes.topics.every((t) => t.startMs <= t.endMs)).toBe(true);
  });

  it('writes the summary in the third person from what was decided and who will do what, and keeps each item in one place', () => {
    const notes = generateLocalNotes(
      makeTranscript([
        ['spk-ana', 'Welcome everyone, this is the launch sync for the new mobile app release.'],
        ['spk-sam', 'The marketing team wants the launch in the middle of March this year.'],
        ['spk-ana', 'We decided the launch date is the fourteenth of March.'],
        ['spk-ana', 'Sam, please book the venue for the launch party by Friday.'],
        ['spk-sam', 'I will draft the press release for the launch by Wednesday.'],
        ['spk-ana', 'The pricing page for the launch is still an open question for the team.'],
      ]),
    );
    expect(notes.summary).toContain('The group decided the launch date is the fourteenth of March.');
    expect(notes.summary).toContain('Sam Okafor will book the venue for the launch party by Friday and draft the press release for the launch by Wednesday.');
    expect(notes.summary).toContain('The pricing page for the launch is still an open question for the team.');
    expect(notes.summary).not.toMatch(/\b(I|I'll|please)\b/);
    const decisionTurns = new Set(notes.decisions.flatMap((d) => d.segmentIds));
    expect(notes.keyPoints.some((k) => k.segmentIds.some((id) => decisionTurns.has(id)))).toBe(false);
  });

  it('reports decisions and views as the minutes would, not as they were said: no "let\'s", no "I think"', () => {
    const notes = generateLocalNotes(
      makeTranscript([
        ['spk-ana', 'The premium tier is the part of the pricing that finance still worries about.'],
        ['spk-sam', 'I think we should keep the premium tier free for the first month of the launch.'],
        ['spk-ana', "Okay, so let's go with a free first month for the premium tier."],
        ['spk-3', 'The support team needs the new pricing table before the launch in March.'],
      ]),
    );
    expect(notes.summary).toContain('The group decided to go with a free first month for the premium tier.');
    expect(notes.summary).toContain('Sam Okafor thought the group should keep the premium tier free for the first month of the launch.');
    expect(notes.summary).not.toMatch(/\b(let's|I think|we|our)\b/i);
  });

  it('leaves out of the summary a decision announced with nothing decided in it', () => {
    const notes = generateLocalNotes(
      makeTranscript([
        ['spk-ana', 'The remote control needs a cheaper chip and a rubber case for the launch.'],
        ['spk-sam', "We decided, 'cause it's not on our list."],
        ['spk-3', 'The rubber case for the remote control costs two euros more than plastic.'],
      ]),
    );
    expect(notes.summary).not.toMatch(/decided/);
  });

  it('names a topic by its subject rather than a name said in passing', () => {
    const notes = generateLocalNotes(
      makeTranscript([
        ['spk-ana', 'Before we start, I saw Jeff Buckley live in San Diego last year.'],
        ['spk-sam', 'Jeff Buckley in San Diego sounds great.'],
        ['spk-ana', 'The battery pack of the remote control is too heavy.'],
        ['spk-3', 'A smaller battery pack would make the remote control lighter.'],
      ]),
    );
    expect(notes.topics).toHaveLength(1);
    expect(['Battery pack', 'Remote control']).toContain(notes.topics[0]!.text);
  });

  it('gives a ten-minute meeting that moves through subjects more than one topic', () => {
    expect(generateLocalNotes(syntheticMeeting(10)).topics.length).toBeGreaterThan(1);
  });

  describe('on a six-minute launch sync of three people, as a new user would try it', () => {
    const transcript = launchMeeting();
    const notes = generateLocalNotes(transcript);

    it('writes the summary in the third person from the facts: topics, decisions, who will do what by when, what is open', () => {
      expect(notes.summary).toMatch(/^The meeting was about the launch date, the launch party, .+ and the premium tier\./);
      expect(notes.summary).toContain('The group decided the launch date is the fourteenth of March.');
      expect(notes.summary).toContain('The group decided to go with a free first month for the premium tier.');
      expect(notes.summary).toContain(
        'Daniel Ortiz will book the venue for the launch party by Friday and update the screenshots for the app store by Monday.',
      );
      expect(notes.summary).toContain(
        'Dana Kim will schedule a follow-up with legal about the privacy policy next week and draft the answers for the support team.',
      );
      expect(notes.summary).toContain('The price of the premium tier after that month is still an open question');
      expect(notes.summary).not.toMatch(/\b(I|I'll|let's|please|we|you)\b/i);
    });

    it('extracts each task once, owned by the participant however the name was said, with every moment it was said', () => {
      expect(notes.actionItems.map((i) => [i.text, i.assignee, i.assigneeSpeakerId, i.dueText, i.segmentIds])).toEqual([
        ['Book the venue for the launch party', 'Daniel Ortiz', 'spk-daniel', 'by Friday', ['launch-6', 'launch-7']],
        ['Schedule a follow-up with legal about the privacy policy', 'Dana Kim', 'spk-dana', 'next week', ['launch-9']],
        ['Update the screenshots for the app store', 'Daniel Ortiz', 'spk-daniel', 'by Monday', ['launch-13']],
        ['Draft the answers for the support team', 'Dana Kim', 'spk-dana', null, ['launch-14']],
      ]);
      expect(LAUNCH_TASKS.every((task) => notes.actionItems.some((i) => i.text.includes(task.word) && i.assigneeSpeakerId === task.ownerSpeakerId))).toBe(true);
    });

    it('keeps each item in one place: no key point says what a decision or an action item says', () => {
      const elsewhere = new Set([...notes.decisions, ...notes.actionItems].flatMap((i) => i.segmentIds));
      expect(notes.keyPoints.filter((k) => k.segmentIds.some((id) => elsewhere.has(id)))).toEqual([]);
    });

    it('follows the meeting from subject to subject in its topics', () => {
      expect(notes.topics.map((t) => [t.text, t.segmentIds[0]])).toEqual([
        ['Launch date', 'launch-2'],
        ['Launch party', 'launch-6'],
        ['App store', 'launch-12'],
        ['Premium tier', 'launch-15'],
      ]);
    });

    it("cites so that the notes' own check keeps every item", () => {
      expect(checkCitations(notes, transcript).droppedUncited).toBe(0);
    });

    it('writes no summary sentence that does not hold against the segments it was written from', () => {
      const sentences = [
        { text: 'Daniel Ortiz will book the venue for the launch party by Friday.', segmentIds: ['launch-6', 'launch-7'] },
        { text: 'The group decided to cancel the launch and sell the company.', segmentIds: ['launch-5'] },
        { text: 'Dana Kim will draft the answers for the support team.', segmentIds: ['launch-14'] },
      ];
      expect(checkedSummary(sentences, transcript)).toEqual([sentences[0], sentences[2]]);
    });

    it('gives the summary as its sentences too, each citing segments that hold it, joined into the summary', () => {
      const sentences = notes.summarySentences ?? [];
      expect(sentences.length).toBeGreaterThan(1);
      expect(sentences.map((s) => s.text).join(' ')).toBe(notes.summary);
      const index = indexTranscript(transcript);
      for (const sentence of sentences) expect(checkCitedItem(sentence, index).ok).toBe(true);
    });
  });
});
