import type { NotesSegment, NotesTranscript } from '#server/features/notes/notes-types.ts';

/**
 * A product meeting and notes items written about it, each labelled by hand: `faithful` when the
 * cited segments say what the item says (verbatim, paraphrased, summarised, or an action item
 * restated in the third person), `unfaithful` when they do not (a neighbouring segment cited
 * instead of the right one, a claim nobody made, a half-invented one). The citation checker's
 * threshold is chosen on these, and the bench prints how it does on them.
 */
const LINES: Array<[speaker: 'ana' | 'ben' | 'chloe', text: string]> = [
  ['ana', "Okay, let's get started. Today we need to settle the launch date and the pricing page."],
  ['ben', 'The mobile build is still failing on older Android devices, mostly the login screen.'],
  ['ben', 'I think we need at least another week to fix the crash on Android nine.'],
  ['chloe', 'Marketing already booked the newsletter for the twelfth, so moving the launch costs us that slot.'],
  ['ana', "Then let's push the launch to the nineteenth and ask marketing to move the newsletter."],
  ['chloe', "Fine, I'll talk to the newsletter team tomorrow and get a new slot."],
  ['ben', 'I will send a crash report with the stack traces to everyone by Friday.'],
  ['ana', 'On pricing, the current page confuses people about the annual discount.'],
  ['chloe', 'Support got thirty tickets last month asking whether the discount applies to teams.'],
  ['ana', 'We agreed to show the annual price per month and state the team discount in one line.'],
  ['ben', 'Can we also drop the enterprise tier from the page? Nobody clicks it.'],
  ['ana', 'No, sales still needs it for the leads form, so the enterprise tier stays.'],
  ['chloe', 'I can draft the new pricing copy this week and share it in the channel.'],
  ['ana', 'Good. Dana from legal should review the discount wording before it goes live.'],
  ['ben', 'Last thing, the analytics dashboard is slow because the events table has no index.'],
  ['ben', 'Adding an index on the event date should bring the load time under two seconds.'],
  ['ana', "Let's do that after the launch, it is not urgent."],
];

export const CITATION_MEETING: NotesTranscript = {
  title: 'Launch and pricing',
  startedAt: '2026-03-04T15:00:00.000Z',
  timeZone: 'Europe/Berlin',
  speakers: [
    { id: 'spk-ana', label: 'Speaker 1', name: 'Ana' },
    { id: 'spk-ben', label: 'Speaker 2', name: 'Ben' },
    { id: 'spk-chloe', label: 'Speaker 3', name: 'Chloe' },
  ],
  segments: LINES.map(([speaker, text], i): NotesSegment => ({
    id: `seg-${i + 1}`,
    speakerId: `spk-${speaker}`,
    startMs: i * 8000,
    endMs: i * 8000 + 7000,
    text,
  })),
};

export type CitationCase = { kind: 'faithful' | 'unfaithful'; why: string; text: string; segmentIds: string[] };

const s = (...numbers: number[]) => numbers.map((n) => `seg-${n}`);

export const CITATION_CASES: CitationCase[] = [
  { kind: 'faithful', why: 'verbatim', text: 'The mobile build is failing on older Android devices', segmentIds: s(2) },
  { kind: 'faithful', why: 'paraphrase', text: 'Fixing the Android nine crash needs another week', segmentIds: s(3) },
  { kind: 'faithful', why: 'summary of two', text: 'Android login crashes on older devices need another week of work', segmentIds: s(2, 3) },
  { kind: 'faithful', why: 'decision', text: 'Launch pushed to the nineteenth', segmentIds: s(5) },
  { kind: 'faithful', why: 'decision, reworded', text: 'The launch moves to the 19th and marketing moves the newsletter', segmentIds: s(4, 5) },
  { kind: 'faithful', why: 'action, third person', text: 'Chloe to talk to the newsletter team about a new slot', segmentIds: s(6) },
  { kind: 'faithful', why: 'action, third person', text: 'Ben will send the crash report with stack traces by Friday', segmentIds: s(7) },
  { kind: 'faithful', why: 'key point', text: 'The pricing page confuses people about the annual discount', segmentIds: s(8) },
  { kind: 'faithful', why: 'key point, number', text: 'Thirty support tickets asked whether the discount applies to teams', segmentIds: s(9) },
  { kind: 'faithful', why: 'decision', text: 'Show the annual price per month with the team discount in one line', segmentIds: s(10) },
  { kind: 'faithful', why: 'decision, negative', text: 'The enterprise tier stays on the pricing page for sales leads', segmentIds: s(11, 12) },
  { kind: 'faithful', why: 'action', text: 'Chloe drafts the new pricing copy this week', segmentIds: s(13) },
  { kind: 'faithful', why: 'action, named person', text: 'Dana from legal reviews the discount wording', segmentIds: s(14) },
  { kind: 'faithful', why: 'key point', text: 'The analytics dashboard is slow because the events table lacks an index', segmentIds: s(15) },
  { kind: 'faithful', why: 'summary', text: 'An index on event date should cut dashboard load time under two seconds', segmentIds: s(15, 16) },
  { kind: 'faithful', why: 'decision, deferred', text: 'The events index waits until after the launch', segmentIds: s(15, 17) },
  { kind: 'faithful', why: 'topic title', text: 'Launch date', segmentIds: s(1, 4, 5) },
  { kind: 'faithful', why: 'topic title', text: 'Pricing page', segmentIds: s(7, 8, 9, 10) },
  { kind: 'faithful', why: 'topic title', text: 'Android crash', segmentIds: s(2, 3) },
  { kind: 'faithful', why: 'topic title', text: 'Analytics dashboard performance', segmentIds: s(15, 16) },
  { kind: 'faithful', why: 'paraphrase', text: 'Moving the launch loses the newsletter slot booked for the twelfth', segmentIds: s(4) },
  { kind: 'faithful', why: 'paraphrase, speaker named', text: 'Ben proposed dropping the enterprise tier because nobody clicks it', segmentIds: s(11) },
  { kind: 'faithful', why: 'paraphrase, synonyms', text: 'Customers are confused by the yearly discount', segmentIds: s(8) },
  { kind: 'faithful', why: 'paraphrase, synonyms', text: 'Ben expects the Android fix to take another week', segmentIds: s(3) },
  { kind: 'faithful', why: 'paraphrase, all synonyms', text: 'Release postponed by seven days', segmentIds: s(5) },
  { kind: 'unfaithful', why: 'neighbour cited', text: 'Ben will send the crash report with stack traces by Friday', segmentIds: s(6) },
  { kind: 'unfaithful', why: 'neighbour cited', text: 'Show the annual price per month with the team discount in one line', segmentIds: s(9) },
  { kind: 'unfaithful', why: 'neighbour cited', text: 'Chloe drafts the new pricing copy this week', segmentIds: s(14) },
  { kind: 'unfaithful', why: 'neighbour cited', text: 'An index on event date should cut dashboard load time', segmentIds: s(17) },
  { kind: 'unfaithful', why: 'wrong topic cited', text: 'Analytics dashboard performance', segmentIds: s(8, 9) },
  { kind: 'unfaithful', why: 'wrong topic cited', text: 'Launch date', segmentIds: s(13, 14) },
  { kind: 'unfaithful', why: 'invented', text: 'The team doubled the marketing budget for the spring campaign', segmentIds: s(4) },
  { kind: 'unfaithful', why: 'invented', text: 'Hiring two contractors for the iOS rewrite was approved', segmentIds: s(2, 3) },
  { kind: 'unfaithful', why: 'invented', text: 'Customers prefer quarterly billing over monthly invoices', segmentIds: s(8) },
  { kind: 'unfaithful', why: 'invented', text: 'Security audit scheduled with an external firm', segmentIds: s(14) },
  { kind: 'unfaithful', why: 'invented quote', text: '"We will cancel the newsletter entirely and rely on social media"', segmentIds: s(5) },
  { kind: 'unfaithful', why: 'invented action', text: 'Ana to migrate the database to a new cloud provider', segmentIds: s(17) },
  {
    kind: 'unfaithful',
    why: 'half invented',
    text: 'The launch moves to the nineteenth and the price rises by twenty percent for all customers',
    segmentIds: s(5),
  },
  { kind: 'unfaithful', why: 'half invented', text: 'Support tickets about the discount will be answered by a new chatbot vendor', segmentIds: s(9) },
  { kind: 'unfaithful', why: 'half invented', text: 'Legal approved the discount wording and the new refund policy', segmentIds: s(14) },
  { kind: 'unfaithful', why: 'opposite, other words', text: 'Remove the premium plan since no one selects it', segmentIds: s(12) },
  { kind: 'unfaithful', why: 'invented topic', text: 'Office relocation', segmentIds: s(1) },
  { kind: 'unfaithful', why: 'invented topic', text: 'Quarterly hiring plan', segmentIds: s(10, 11) },
];
