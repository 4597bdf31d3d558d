import { describe, expect, it } from 'vitest';
import { makeTranscript } from '#tests/support/notes-transcript.ts';
import { generateLocalNotes } from './generate-local-notes.ts';

const itemsOf = (...lines: Array<readonly [string | null, string]>) => generateLocalNotes(makeTranscript(lines)).actionItems;
const one = (speakerId: string | null, text: string) => itemsOf([speakerId, text]);

describe('local notes: action items', () => {
  it('a first-person commitment is an item owned by its named speaker, as an imperative', () => {
    expect(one('spk-ana', "Um, I'll send the revised budget to finance.")).toEqual([
      { text: 'Send the revised budget to finance', segmentIds: ['s1'], assignee: 'Ana', assigneeSpeakerId: 'spk-ana', due: null, dueText: null },
    ]);
  });

  it('a first-person commitment by an unnamed speaker is owned by their label and id', () => {
    const [item] = one('spk-3', "I'm going to update the project plan.");
    expect(item).toMatchObject({ text: 'Update the project plan', assignee: 'Speaker 3', assigneeSpeakerId: 'spk-3' });
  });

  it('"I need to" and "let me" commit the speaker', () => {
    expect(one('spk-ana', 'I need to check the supplier prices.').map((i) => [i.text, i.assignee])).toEqual([['Check the supplier prices', 'Ana']]);
    expect(one('spk-ana', 'Let me draft the customer survey.').map((i) => [i.text, i.assignee])).toEqual([['Draft the customer survey', 'Ana']]);
  });

  it('"Sam will…" is owned by Sam Okafor, the speaker whose name starts with Sam, written as the participant is', () => {
    const [item] = one('spk-ana', 'Sam will draft the launch proposal.');
    expect(item).toMatchObject({ text: 'Draft the launch proposal', assignee: 'Sam Okafor', assigneeSpeakerId: 'spk-sam' });
  });

  it('a named person who is not a speaker owns the item without a speaker id', () => {
    const [item] = one('spk-ana', 'Maria is going to book the meeting room.');
    expect(item).toMatchObject({ text: 'Book the meeting room', assignee: 'Maria', assigneeSpeakerId: null });
  });

  it('a request addressed by name belongs to the person addressed', () => {
    expect(one('spk-ana', 'Can you book the meeting room, Maria?')).toMatchObject([
      { text: 'Book the meeting room', assignee: 'Maria', assigneeSpeakerId: null },
    ]);
    expect(one('spk-ana', 'Sam, could you send the slides to the client?')).toMatchObject([
      { text: 'Send the slides to the client', assignee: 'Sam Okafor', assigneeSpeakerId: 'spk-sam' },
    ]);
  });

  it('a request that names nobody, and "we will…", are unassigned', () => {
    expect(one('spk-ana', 'Can you book the meeting room?')).toMatchObject([{ text: 'Book the meeting room', assignee: null, assigneeSpeakerId: null }]);
    expect(one('spk-ana', "We'll order the new batteries.")).toMatchObject([{ text: 'Order the new batteries', assignee: null, assigneeSpeakerId: null }]);
  });

  it('"action item:" makes an item of what follows, owned by the name given', () => {
    expect(one('spk-3', 'Action item for Sam: review the contract.')).toMatchObject([
      { text: 'Review the contract', assignee: 'Sam Okafor', assigneeSpeakerId: 'spk-sam' },
    ]);
    expect(one('spk-3', 'Action item: update the shared folder.')).toMatchObject([{ text: 'Update the shared folder', assignee: null }]);
  });

  it('past-tense reports are not items', () => {
    expect(one('spk-ana', 'I sent the revised budget to finance last week.')).toEqual([]);
    expect(one('spk-ana', 'Sam booked the meeting room yesterday.')).toEqual([]);
    expect(one('spk-ana', 'I was going to send the budget to finance.')).toEqual([]);
  });

  it('questions are not items, requests aside', () => {
    expect(one('spk-ana', 'Will Sam send the budget to finance?')).toEqual([]);
    expect(one('spk-ana', 'Should I send the budget to finance?')).toEqual([]);
    expect(one('spk-ana', 'Are we going to order new batteries?')).toEqual([]);
  });

  it('hedged maybes and refusals are not items', () => {
    expect(one('spk-ana', 'Maybe I could send the budget to finance.')).toEqual([]);
    expect(one('spk-ana', "I'll probably send the budget to finance.")).toEqual([]);
    expect(one('spk-ana', 'I might update the project plan.')).toEqual([]);
    expect(one('spk-ana', "If there's time I'll update the project plan.")).toEqual([]);
    expect(one('spk-ana', "I won't send the budget to finance.")).toEqual([]);
  });

  it('running the meeting is not an item ("I\'ll go first", "we\'ll talk about…")', () => {
    expect(itemsOf(['spk-ana', "I'll go first."], ['spk-sam', "We'll talk about the budget after the break."])).toEqual([]);
  });

  it('"I\'d like you to…" is a request to the person addressed', () => {
    expect(one('spk-ana', "Sam, I'd like you to draft the customer survey.")).toMatchObject([
      { text: 'Draft the customer survey', assignee: 'Sam Okafor', assigneeSpeakerId: 'spk-sam' },
    ]);
  });

  it('"what I\'m going to do is…" commits the speaker to what follows', () => {
    expect(one('spk-ana', "What I'm going to do is draft the budget for finance.")).toMatchObject([{ text: 'Draft the budget for finance', assignee: 'Ana' }]);
  });

  it('what the product will be, an embedded clause or an initialism as subject are not items', () => {
    expect(one('spk-ana', "We'll have a screen with a back light.")).toEqual([]);
    expect(one('spk-ana', "So all we're gonna do is have some presentations.")).toEqual([]);
    expect(one('spk-ana', 'The case that we will design is made of rubber.')).toEqual([]);
    expect(one('spk-ana', 'TVs will need different infrared codes.')).toEqual([]);
  });

  it('two commitments in one turn are two items, each citing the turn', () => {
    const items = one('spk-ana', "I'll take the minutes, and then I'll send them to the whole team after the meeting.");
    expect(items.map((i) => i.text)).toEqual(['Take the minutes', 'Send them to the whole team after the meeting']);
    expect(items.every((i) => i.segmentIds.join() === 's1')).toBe(true);
  });

  it('keeps the due date beside the words it was read from, and out of the text', () => {
    const [item] = one('spk-ana', "I'll send the revised budget to finance by Friday.");
    expect(item).toMatchObject({ text: 'Send the revised budget to finance', due: '2025-03-07', dueText: 'by Friday' });
  });

  it('"Sam to send…", as minutes write it, is owned by the person named first', () => {
    expect(one('spk-ana', 'Sam to schedule a follow-up with legal about the contract.')).toMatchObject([
      { text: 'Schedule a follow-up with legal about the contract', assignee: 'Sam Okafor', assigneeSpeakerId: 'spk-sam' },
    ]);
    expect(one('spk-ana', 'We want to schedule a follow-up with legal.')).toEqual([]);
  });

  it('the same task said twice in other words is one item, with both moments, its owner and due date', () => {
    const items = itemsOf(['spk-ana', 'Sam, please book the venue by Friday.'], ['spk-sam', 'Sure, I will book the venue for the launch party.']);
    expect(items).toEqual([
      {
        text: 'Book the venue for the launch party',
        segmentIds: ['s1', 's2'],
        assignee: 'Sam Okafor',
        assigneeSpeakerId: 'spk-sam',
        due: '2025-03-07',
        dueText: 'by Friday',
      },
    ]);
    // Different tasks, or the same words for two people, stay apart.
    expect(itemsOf(['spk-ana', 'I will book the venue.'], ['spk-sam', 'I will book the flights.'])).toHaveLength(2);
    expect(itemsOf(['spk-ana', 'I will book the venue.'], ['spk-sam', 'I will book the venue.'])).toHaveLength(2);
  });
});
