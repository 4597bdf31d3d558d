import { describe, expect, it } from 'vitest';
import {
  answeringFacts,
  buildMeetingIndex,
  CITATION_GAP,
  factSentence,
  questionTerms,
  rankPassages,
  scoreMeetings,
  segmentsInContext,
  stemsOf,
  type MeetingTranscript,
} from './meeting-index.ts';

/** Made-up meetings: a few people, lines of talk in order, each line its own segment. */
function meeting(id: string, lines: [speaker: string, text: string][], options: { title?: string; startedAt?: string } = {}): MeetingTranscript {
  const speakers = [...new Set(lines.map(([speaker]) => speaker))].map((name) => ({ id: `${id}-${name}`, name }));
  return {
    id,
    title: options.title ?? `Meeting ${id}`,
    startedAt: options.startedAt ?? '2026-03-02T09:00:00.000Z',
    speakers,
    segments: lines.map(([speaker, text], i) => ({ id: `${id}-${i}`, speakerId: `${id}-${speaker}`, startMs: i * 5000, text })),
  };
}

/** Small talk that matches no question below: long enough to fill passages between the lines that matter. */
const filler = (n: number, speaker = 'Ann'): [string, string][] =>
  Array.from({ length: n }, (_, i) => [speaker, `Right, item ${i} on the list is fine with me, nothing more to add here from my side today.`]);

const NOW = new Date('2026-03-12T12:00:00.000Z');

describe("Ask's passages", () => {
  it('cuts a meeting into overlapping passages of a few turns that cover every line', () => {
    const index = buildMeetingIndex(meeting('m', filler(40)));
    expect(index.passages.length).toBeGreaterThan(5);
    for (const p of index.passages) expect(p.last - p.first + 1).toBeLessThanOrEqual(8);
    expect(index.passages[0]!.first).toBe(0);
    expect(index.passages.at(-1)!.last).toBe(39);
    // Each passage starts within the one before it: a stretch of talk falls whole in some passage.
    for (let i = 1; i < index.passages.length; i++) {
      expect(index.passages[i]!.first).toBeGreaterThan(index.passages[i - 1]!.first);
      expect(index.passages[i]!.first).toBeLessThanOrEqual(index.passages[i - 1]!.last);
    }
  });

  it("counts a listener's mm-hmm between the lines of an exchange as no turn of it", () => {
    const exchange: [string, string][] = Array.from({ length: 10 }, (_, i): [string, string][] => [
      ['Ann', `Colour option ${i + 1}.`],
      ['Bo', i % 2 === 0 ? 'Mm-hmm.' : 'Yeah, right.'],
    ]).flat();
    const index = buildMeetingIndex(meeting('m', exchange));
    // Eight lines of Ann's, with Bo's responses between them.
    expect(index.passages[0]).toMatchObject({ first: 0, last: 14 });
  });

  it('knows who spoke how much of each passage', () => {
    const index = buildMeetingIndex(
      meeting('m', [
        ['Ann', 'budget review budget'],
        ['Bo', 'fine'],
      ]),
    );
    expect(index.passages[0]!.speakerWords.get('m-Ann')).toBe(3);
    expect(index.passages[0]!.speakerWords.get('m-Bo')).toBe(1);
  });
});

describe("Ask's question processing", () => {
  it('keeps the subject of a question, not its frame, as stems and phrases', () => {
    const q = questionTerms('What did the group discuss about the scroll wheels?', NOW);
    expect(q.stems).toEqual(stemsOf('scroll wheel'));
    expect([...q.terms.keys()]).toEqual([...stemsOf('scroll wheel'), stemsOf('scroll wheel').join(' ')]);
    expect(questionTerms('Summarize the discussion about pricing.', NOW).stems).toEqual(stemsOf('pricing'));
    // A frame word someone owns is the subject.
    expect(questionTerms('What did Grad F say about his proposal for the parser?', NOW).stems).toEqual(stemsOf('grad proposal parser'));
    expect(questionTerms('What did Grad F propose for the parser?', NOW).stems).toEqual(stemsOf('grad parser'));
  });

  it('leaves out the interrogatives and auxiliaries of a question, in every form', () => {
    expect(questionTerms('Why does the remote need a light when doing the evaluation?', NOW).stems).toEqual(stemsOf('remote need light evaluation'));
    expect(questionTerms('Whose idea was the yellow case, and why did they like it?', NOW).stems).toEqual(stemsOf('yellow case like'));
  });

  it('weighs the part of the meeting a question names ("when discussing …") half as much as its subject', () => {
    const q = questionTerms('What did Marketing think of the buttons when discussing the budget?', NOW);
    expect(q.terms.get(stemsOf('buttons')[0]!)).toBe(1);
    expect(q.terms.get(stemsOf('budget')[0]!)).toBe(0.5);
  });

  it('stems words so that a plural or a verb form finds the line', () => {
    expect(stemsOf('batteries charged')).toEqual(stemsOf('battery charging'));
  });

  it('reads British and American spellings as one word', () => {
    expect(stemsOf('colour favourite organisation centre grey')).toEqual(stemsOf('color favorite organization center gray'));
    const index = buildMeetingIndex(meeting('uk', [...filler(10), ['Bo', 'The colour should be grey, the organisation prefers it.'], ...filler(10)]));
    expect(rankPassages([index], questionTerms('Which color did the organization want?', NOW), 5)[0]!.segmentId).toBe('uk-10');
  });

  it('reads the dates a question names and leaves them out of its words', () => {
    const q = questionTerms('What did we decide about the logo last week?', NOW);
    expect(q.dates).toHaveLength(1);
    const weekAgo = NOW.getTime() - 7 * 86_400_000;
    expect(q.dates[0]!.fromMs).toBeLessThanOrEqual(weekAgo);
    expect(q.dates[0]!.toMs).toBeGreaterThan(weekAgo);
    expect(q.stems).toEqual(stemsOf('decide logo'));
  });
});

describe("Ask's ranking", () => {
  const budget = meeting('budget', [
    ...filler(10),
    ['Bo', 'The budget for the launch is twelve thousand euros.'],
    ['Cy', 'Twelve thousand leaves little for the launch party.'],
    ...filler(10),
  ]);
  const design = meeting('design', [...filler(10), ['Ann', 'The scroll wheel sits under the thumb.'], ...filler(10)]);
  const wheelsApart = meeting('apart', [
    ...filler(10),
    ['Ann', 'Can we scroll through the menu quickly?'],
    ...filler(3),
    ['Bo', 'The wheel of the cart is broken.'],
    ...filler(10),
  ]);

  it('finds the line the question is about and cites it', () => {
    const ranked = rankPassages([buildMeetingIndex(budget)], questionTerms('How big is the launch budget?', NOW), 5);
    expect(ranked[0]!.segmentId).toBe('budget-10');
  });

  it('routes a question across meetings to the meeting it is about', () => {
    const indexes = [budget, design, wheelsApart].map(buildMeetingIndex);
    expect(rankPassages(indexes, questionTerms('What did the group discuss about the launch budget?', NOW), 5)[0]!.meetingId).toBe('budget');
    // A phrase outranks its words said apart.
    expect(rankPassages(indexes, questionTerms('What about the scroll wheel?', NOW), 5)[0]!.meetingId).toBe('design');
  });

  it('searches the best few meetings first when asked across many, the others only after them', () => {
    // One meeting is about the launch budget throughout; each of the others says it once, better put.
    const about = meeting('about', [
      ...filler(10),
      ['Bo', 'The launch budget is tight.'],
      ...filler(10),
      ['Cy', 'Launch costs eat the budget.'],
      ...filler(10),
      ['Bo', 'Budget for the launch again.'],
      ...filler(10),
    ]);
    const once = Array.from({ length: 4 }, (_, i) =>
      meeting(`once${i}`, [...filler(10), ['Ann', `Launch budget party: the launch budget party is ${i} euros.`], ...filler(30)]),
    );
    const indexes = [...once, about].map(buildMeetingIndex);
    const question = questionTerms('launch budget', NOW);
    expect(rankPassages(indexes, question, 3, 1).map((r) => r.meetingId)).toEqual(['about', 'about', 'about']);
    const later = rankPassages(indexes, question, 6, 1);
    expect(later.slice(0, 3).map((r) => r.meetingId)).toEqual(['about', 'about', 'about']);
    expect(later.slice(3).every((r) => r.meetingId.startsWith('once'))).toBe(true);
  });

  it('routes by title and by the date a question names', () => {
    const kickoff = meeting('kickoff', [...filler(5), ['Ann', 'We talk about the remote control.']], {
      title: 'Kick-off',
      startedAt: '2026-03-02T09:00:00.000Z',
    });
    const review = meeting('review', [...filler(5), ['Ann', 'We talk about the remote control.'], ['Bo', 'The remote control again.']], {
      title: 'Design review',
      startedAt: '2026-03-11T09:00:00.000Z',
    });
    const indexes = [kickoff, review].map(buildMeetingIndex);
    expect(rankPassages(indexes, questionTerms('What about the remote control?', NOW), 1)[0]!.meetingId).toBe('review');
    expect(rankPassages(indexes, questionTerms('What about the remote control in the kick-off?', NOW), 1)[0]!.meetingId).toBe('kickoff');
    expect(rankPassages(indexes, questionTerms('What about the remote control last week?', NOW), 1)[0]!.meetingId).toBe('kickoff');
  });

  it('routes to the meeting that talks about a subject throughout before one that names its words now and then', () => {
    // One comes back to the budget thirty times (and names the launch once); the other names the launch and the budget four times each.
    const talk = (n: number, line: string): [string, string][] => Array.from({ length: n }, (_, i) => [i % 2 ? 'Bo' : 'Cy', `${line} ${i}.`]);
    const throughout = meeting('throughout', [['Ann', 'The launch is in May.'], ...talk(30, 'The budget comes up, line'), ...filler(10)]);
    const passing = meeting('passing', [...talk(4, 'The launch comes up, line'), ...talk(4, 'The budget comes up, line'), ...filler(33)]);
    const elsewhere = meeting('elsewhere', filler(41));
    const scores = scoreMeetings([throughout, passing, elsewhere].map(buildMeetingIndex), questionTerms('What about the launch budget?', NOW));
    expect(scores.get('throughout')!).toBeGreaterThan(scores.get('passing')!);
    expect(scores.get('passing')!).toBeGreaterThan(scores.get('elsewhere')!);
  });

  it('favours the speaker a question names', () => {
    const both = meeting('both', [
      ...filler(10),
      ['Bo', 'I think the colour should be yellow.'],
      ...filler(10),
      ['Cy', 'For me the colour should be yellow.'],
      ...filler(10),
    ]);
    const index = buildMeetingIndex(both);
    expect(rankPassages([index], questionTerms('What did Cy think of the colour yellow?', NOW), 5)[0]!.segmentId).toBe('both-21');
    expect(rankPassages([index], questionTerms('What did Bo think of the colour yellow?', NOW), 5)[0]!.segmentId).toBe('both-10');
  });

  it('knows a speaker by the part of their name only they have, as people ask', () => {
    const lines: [string, string][] = [
      ...filler(10),
      ['Sam Lee', 'I would take the venue by the river.'],
      ...filler(10),
      ['Dana Ortiz', 'For me the venue by the river.'],
      ...filler(10),
    ];
    const index = buildMeetingIndex(meeting('v', lines));
    // Both say the same; Dana is who was asked about, by first or last name.
    expect(rankPassages([index], questionTerms('What did Dana think of the venue?', NOW), 5)[0]!.segmentId).toBe('v-21');
    expect(rankPassages([index], questionTerms('Why did Ortiz want the venue?', NOW), 5)[0]!.segmentId).toBe('v-21');
    expect(rankPassages([index], questionTerms('What did Sam think of the venue?', NOW), 5)[0]!.segmentId).toBe('v-10');
  });

  it('tells apart speakers named by a role and a letter, and knows a role only one of them has', () => {
    const lines: [string, string][] = [
      ...filler(10),
      ['Grad A', 'I think the parser needs a cache.'],
      ...filler(10),
      ['Grad F', 'For me the parser needs a cache.'],
      ...filler(10),
      ['Professor C', 'So the parser needs a cache.'],
      ...filler(10),
    ];
    const index = buildMeetingIndex(meeting('g', lines));
    expect(rankPassages([index], questionTerms('What did Grad F say about the parser?', NOW), 5)[0]!.segmentId).toBe('g-21');
    expect(rankPassages([index], questionTerms('What did F say about the parser?', NOW), 5)[0]!.segmentId).toBe('g-21');
    expect(rankPassages([index], questionTerms('What did the professor think of the parser?', NOW), 5)[0]!.segmentId).toBe('g-32');
  });

  it('tells apart speakers known only by their number', () => {
    const lines: [string, string][] = [
      ...filler(10),
      ['Speaker 1', 'I would take the venue by the river.'],
      ...filler(10),
      ['Speaker 2', 'For me the venue by the river.'],
      ...filler(10),
    ];
    const index = buildMeetingIndex(meeting('n', lines));
    expect(rankPassages([index], questionTerms('What did Speaker 2 think of the venue?', NOW), 5)[0]!.segmentId).toBe('n-21');
    expect(rankPassages([index], questionTerms('What did speaker 1 think of the venue?', NOW), 5)[0]!.segmentId).toBe('n-10');
  });

  it('answers a question about nothing but what someone said with where they talk most', () => {
    const lines: [string, string][] = [
      ...filler(10),
      ['Sam Lee', 'Dana, what do you make of it?'],
      ['Dana Ortiz', 'I would move the launch to May, hire two more testers and keep the price as it is.'],
      ...filler(20),
      ['Dana Ortiz', 'Fine by me.'],
      ...filler(20),
      ['Dana Ortiz', 'And the posters should go out a week before the launch, not the day itself.'],
      ...filler(10),
    ];
    const index = buildMeetingIndex(meeting('d', lines));
    const ranked = rankPassages([index], questionTerms('What did Dana say?', NOW), 5);
    // Dana's own lines, the longest first; not Sam's line that names her.
    expect(ranked.map((r) => r.segmentId)).toEqual(['d-11', 'd-53', 'd-32']);
    expect(ranked.every((r) => r.coverage === 1)).toBe(true);
    expect(rankPassages([index], questionTerms('What did Dana Ortiz say?', NOW), 5)[0]!.segmentId).toBe('d-11');
  });

  it('reads as a name a capitalised word or letter standing alone, not a capitalised phrase or "I"', () => {
    expect(questionTerms('What did Dana think of the venue?', NOW).names).toEqual(['dana']);
    expect(questionTerms('What did C think, and what do I think?', NOW).names).toEqual(['c']);
    expect(questionTerms('Summarize the discussion about User Requirements.', NOW).names).toEqual([]);
    expect(questionTerms('Dana asked what?', NOW).names).toEqual([]);
  });

  it('gives five citations from separate stretches of talk, not five adjacent lines', () => {
    const lines: [string, string][] = [];
    for (let i = 0; i < 60; i++) lines.push(['Ann', i % 12 === 0 ? 'The battery lasts a year.' : `The battery is fine, point ${i}.`]);
    const index = buildMeetingIndex(meeting('b', lines));
    const ranked = rankPassages([index], questionTerms('battery', NOW), 5);
    expect(ranked).toHaveLength(5);
    const positions = ranked.map((r) => Number(r.segmentId.split('-')[1])).sort((a, b) => a - b);
    for (let i = 1; i < positions.length; i++) expect(positions[i]! - positions[i - 1]!).toBeGreaterThan(1);
    const spans = ranked.map((r) => index.passages.filter((p) => p.first <= Number(r.segmentId.split('-')[1]) && Number(r.segmentId.split('-')[1]) <= p.last));
    expect(spans.every((s) => s.length > 0)).toBe(true);
  });

  it('cites stretches apart first, and the talk next to them only when there are too few', () => {
    // The same words all through a long meeting: the five citations are five stretches, well apart.
    const long: [string, string][] = Array.from({ length: 200 }, (_, i) => ['Ann', `The battery is fine, point ${i}.`]);
    const apart = rankPassages([buildMeetingIndex(meeting('l', long))], questionTerms('battery', NOW), 5).map((r) => Number(r.segmentId.split('-')[1]));
    expect(apart).toHaveLength(5);
    const sorted = [...apart].sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]! - sorted[i - 1]!).toBeGreaterThan(CITATION_GAP);
    // A short meeting holds no five stretches that far apart: the passages next to the best still answer.
    const short: [string, string][] = Array.from({ length: 40 }, (_, i) => ['Ann', `The battery is fine, point ${i}.`]);
    expect(rankPassages([buildMeetingIndex(meeting('s', short))], questionTerms('battery', NOW), 5)).toHaveLength(5);
  });

  it("cites the discussion that follows a subject's mention, after the lines that name it, and nothing far from it", () => {
    const talk = meeting('t', [
      ...filler(20),
      ['Bo', "Let's talk about the launch budget."],
      ['Cy', 'Twelve thousand euros, and the venue takes half of it.'],
      ['Bo', 'Then the posters and the video share what is left over.'],
      ['Cy', 'Video first, I would say, people watch it more than they read posters.'],
      ['Bo', 'Fine, video first then, and the posters if money remains after that.'],
      ['Cy', 'I will ask the printer what a hundred posters would cost us.'],
      ...filler(40),
    ]);
    const index = buildMeetingIndex(talk);
    const ranked = rankPassages([index], questionTerms('Summarize the discussion about the launch budget.', NOW), 5);
    expect(ranked[0]!.segmentId).toBe('t-20');
    expect(ranked[0]!.coverage).toBe(1);
    // The talk after it says none of the question's words, yet is where the answer is; the filler far from it is not cited.
    const rest = ranked.slice(1).map((r) => Number(r.segmentId.split('-')[1]));
    expect(rest.length).toBeGreaterThan(0);
    expect(ranked.slice(1).every((r) => r.coverage === 0)).toBe(true);
    for (const at of rest) expect(Math.abs(at - 20)).toBeLessThan(60);
    // A question whose words no line says still finds nothing.
    expect(rankPassages([index], questionTerms('What about the office plants?', NOW), 5)).toEqual([]);
  });

  it("cites the named speaker's own line within a stretch where another says more of the words", () => {
    const pair = meeting('p', [...filler(10), ['Cy', 'The case should be yellow.'], ['Bo', 'Yellow, yes.'], ...filler(10)]);
    const ranked = rankPassages([buildMeetingIndex(pair)], questionTerms('What did Bo think of the yellow case?', NOW), 5);
    expect(ranked[0]!.segmentId).toBe('p-11');
    expect(rankPassages([buildMeetingIndex(pair)], questionTerms('What did Cy think of the yellow case?', NOW), 5)[0]!.segmentId).toBe('p-10');
  });

  it("weighs the notes: a topic's words count in the passages of its span, a key point's at the lines it cites", () => {
    const lines: [string, string][] = [
      ...filler(10),
      ['Bo', 'So how do we get people to buy it?'],
      ['Cy', 'Posters in the train stations, and a video online.'],
      ...filler(10),
      ['Ann', 'Posters are cheap.'],
      ...filler(10),
    ];
    const plain = meeting('n', lines);
    const noted: MeetingTranscript = {
      ...plain,
      notes: [
        { kind: 'topic', text: 'Advertising campaign', segmentIds: ['n-10', 'n-11'] },
        { kind: 'key_point', text: 'Adverts go in train stations', segmentIds: ['n-11'] },
      ],
    };
    const question = questionTerms('What did they decide about the advertising campaign?', NOW);
    expect(rankPassages([buildMeetingIndex(plain)], question, 5)).toEqual([]);
    expect(rankPassages([buildMeetingIndex(noted)], question, 5)[0]!.segmentId).toBe('n-10');
    expect(rankPassages([buildMeetingIndex(noted)], questionTerms('Where do the adverts go?', NOW), 5)[0]!.segmentId).toBe('n-11');
    // A meeting's summary routes a question across meetings too: of two meetings saying the same, the
    // one whose summary is about it.
    const same: [string, string][] = [...filler(10), ['Ann', 'The advertising budget is small.'], ...filler(10)];
    const indexes = [meeting('o', same), { ...meeting('s', same), summary: 'The team planned the advertising campaign.' }].map(buildMeetingIndex);
    expect(rankPassages(indexes, question, 5, 1)[0]!.meetingId).toBe('s');
    // The meetings not routed to still answer when those routed to have nothing more that says the
    // question's words; the talk around those lines comes after.
    const ranked = rankPassages(indexes, question, 5, 1);
    expect(ranked.filter((r) => r.coverage > 0).map((r) => r.meetingId)).toEqual(['s', 'o']);
    expect(ranked.slice(0, 2).map((r) => r.meetingId)).toEqual(['s', 'o']);
  });

  it('reads a role the question names as who spoke, not as words to find', () => {
    const roles = meeting('r', [
      ['Project Manager', 'Hello, I am the project manager, and as project manager I run these meetings.'],
      ...filler(12, 'Marketing'),
      ['Project Manager', 'The budget for the case is twelve euros.'],
      ...filler(12, 'Marketing'),
      ['Marketing', 'The budget looks tight to me.'],
      ...filler(6, 'Marketing'),
    ]);
    const ranked = rankPassages([buildMeetingIndex(roles)], questionTerms('What did the Project Manager think of the budget?', NOW), 5);
    // The manager's line on the budget first, then Marketing's; the introduction only after both.
    expect(ranked.slice(0, 3).map((r) => r.segmentId)).toEqual(['r-13', 'r-26', 'r-0']);
    // Then only talk near them that says none of the question's words.
    expect(ranked.slice(3).every((r) => r.coverage === 0)).toBe(true);
  });

  it('finds a word the meetings say in another form of the same root ("quotation", "quote")', () => {
    const quoted = meeting('q', [...filler(10), ['Bo', 'The supplier sent a quote of nine euros per unit.'], ...filler(10)]);
    const ranked = rankPassages([buildMeetingIndex(quoted)], questionTerms('Summarize the discussion about the quotation.', NOW), 5);
    expect(ranked[0]!.segmentId).toBe('q-10');
  });

  it('gives each citation its speaker, time and neighbours from the index searched', () => {
    const index = buildMeetingIndex(
      meeting(
        'c',
        [
          ['Ann', 'one'],
          ['Bo', 'two'],
          ['Cy', 'three'],
        ],
        { title: 'Kick-off' },
      ),
    );
    const [cited] = segmentsInContext([index], ['c-1', 'elsewhere-4'], 1);
    expect(cited).toMatchObject({ meetingId: 'c', meetingTitle: 'Kick-off', segmentId: 'c-1', speaker: 'Bo', text: 'two', startMs: 5000 });
    expect(cited!.before.map((n) => n.text)).toEqual(['one']);
    expect(cited!.after.map((n) => [n.speaker, n.text])).toEqual([['Cy', 'three']]);
    expect(segmentsInContext([index], ['elsewhere-4'], 1)).toEqual([]);
  });

  it('holds an exchange whole, however many mm-hmms it has, so its first and last lines answer together', () => {
    const lines: [string, string][] = [
      ['Ann', 'The budget is tight this quarter.'],
      ...Array.from({ length: 6 }, (_, i): [string, string][] => [
        ['Bo', 'Mm-hmm.'],
        ['Ann', `Supplier ${i + 1} wants paying upfront.`],
      ]).flat(),
      ['Bo', 'Yeah.'],
      ['Ann', 'So the deadline moves to May.'],
    ];
    const index = buildMeetingIndex(meeting('x', [...lines, ...filler(10)]));
    expect(rankPassages([index], questionTerms('Why did the budget move the deadline?', NOW), 5)[0]!.coverage).toBe(1);
  });

  it('finds nothing when no word of the question is in the meetings', () => {
    expect(rankPassages([buildMeetingIndex(budget)], questionTerms('xylophone aardvark', NOW), 5)).toEqual([]);
  });

  it('says how much of the question a moment holds: all of it, or only a word every meeting says', () => {
    const venue = meeting('v', [
      ...filler(10),
      ['Bo', 'The launch party venue is the old boathouse.'],
      ...filler(10),
      ['Cy', 'The launch is on Friday.'],
      ...filler(10),
    ]);
    const index = buildMeetingIndex(venue);
    expect(rankPassages([index], questionTerms('Where is the launch party venue?', NOW), 5)[0]).toMatchObject({ segmentId: 'v-10', coverage: 1 });
    const noise = rankPassages([index], questionTerms('What did the caterers say about the launch menu, wine list and seating plan?', NOW), 5);
    expect(Math.max(...noise.map((c) => c.coverage))).toBeLessThan(0.25);
  });
});

describe("Ask's answers from the tracker and the register", () => {
  const launch: MeetingTranscript = {
    ...meeting('l', [
      ['Dana Ortiz', 'I will book the venue for the launch party by Friday.'],
      ['Eli', 'We go with the boathouse, agreed.'],
      ['Eli', 'Somebody should order the banners.'],
    ]),
    notes: [
      { kind: 'action_item', text: 'Book the venue for the launch party', segmentIds: ['l-0'], assignee: 'Dana Ortiz', due: '2026-03-13', status: 'open' },
      { kind: 'decision', text: 'The launch party is at the boathouse', segmentIds: ['l-1'], status: 'open' },
      { kind: 'action_item', text: 'Order the banners', segmentIds: ['l-2'], assignee: null, due: null, status: 'done' },
    ],
  };
  const index = buildMeetingIndex(launch);
  const facts = (q: string) => answeringFacts([index], q, questionTerms(q, NOW), 3);

  it('answers who owns a task with the action item, its owner and due date', () => {
    const found = facts('Who is booking the venue?');
    expect(found.map((f) => f.fact.segmentIds)).toEqual([['l-0']]);
    expect(factSentence(found[0]!)).toBe('Dana Ortiz: Book the venue for the launch party, due 2026-03-13.');
    expect(facts('Which tasks does Dana have?').map((f) => f.fact.text)).toEqual(['Book the venue for the launch party']);
  });

  it('answers what was decided with the decision, and lists the open action items when no subject is named', () => {
    expect(facts('What did we decide about the launch party?').map((f) => factSentence(f))).toEqual(['Decided: The launch party is at the boathouse.']);
    expect(facts('What are the action items?').map((f) => f.fact.text)).toEqual(['Book the venue for the launch party']);
  });

  it('gives no facts for a question about neither, nor for a subject no item names', () => {
    expect(facts('Where is the launch party venue?')).toEqual([]);
    expect(facts('Who owns the tax filing?')).toEqual([]);
  });
});
