import * as chrono from 'chrono-node';
import { stemmer } from 'stemmer';
import { eng as englishStopWords } from 'stopword';

/**
 * Ask's own index of a meeting, built in memory from its transcript (no database, no model): the
 * conversation cut into overlapping passages of a few turns, each with its terms (Porter stems and
 * the pairs of adjacent ones, so a phrase outranks its words apart) and who spoke how much; and the
 * retrieval over such indexes: meetings scored first (BM25 over each meeting as one document, its
 * title and notes weighing more, dates the question names), then the passages of the best few (BM25
 * over passages with the notes' items on the turns they cite, the passages around adding theirs, a
 * speaker the question names favoured, the talk after a subject's mention too), then one citation
 * per passage, stretches apart first. English only: Porter stems, English stop words, British and
 * American spellings read as one.
 */

export type IndexedSegment = { id: string; speakerId: string | null; startMs: number; endMs?: number; text: string };

export type MeetingTranscript = {
  id: string;
  title: string;
  startedAt: string;
  speakers: { id: string; name: string }[];
  segments: IndexedSegment[];
  /** The meeting's summary, when its notes wrote one. */
  summary?: string | null;
  /** Its notes' items (topics, key points, decisions, action items), each with the segments it cites. */
  notes?: { kind: string; text: string; segmentIds: string[]; assignee?: string | null; due?: string | null; status?: string }[];
};

export type Passage = {
  /** Segment indexes (inclusive) in transcript order. */
  first: number;
  last: number;
  terms: Map<string, number>;
  length: number;
  /** Words spoken by each speaker in the passage. */
  speakerWords: Map<string, number>;
};

export type MeetingIndex = {
  id: string;
  title: string;
  startedAtMs: number;
  segmentIds: string[];
  /** What a citation shows of each segment: who spoke (by name), when, and what. */
  segments: { speaker: string | null; startMs: number; endMs: number; text: string }[];
  segmentSpeakers: (string | null)[];
  /** Each segment's terms (unigram stems and adjacent pairs). */
  segmentTerms: Set<string>[];
  passages: Passage[];
  /** The whole meeting as one document. */
  terms: Map<string, number>;
  length: number;
  titleTerms: Map<string, number>;
  /** The meeting's words (unigram stems), sorted: to find the other forms of a word's root. */
  vocabulary: string[];
  /**
   * Speakers' names as stem sequences, to find a speaker the question names; and the first or last
   * word of a name that no other speaker's name has (lower-cased: "dana" of Dana Ortiz, "c" of
   * Professor C), by which a question may name them alone.
   */
  speakers: { id: string; stems: string[]; handles: string[]; role: string | null }[];
  /** The notes' action items (the tracker's) and decisions (the register's), with the stems of their words and owner. */
  facts: Fact[];
};

export type Fact = {
  kind: 'action_item' | 'decision';
  text: string;
  assignee: string | null;
  due: string | null;
  done: boolean;
  segmentIds: string[];
  stems: Set<string>;
};

/** Fillers and function words of spoken meetings that stopword's English list lacks. */
const SPOKEN = 'um uh mm hmm yeah yep okay ok oh ah gonna wanna kinda just really actually basically will shall let us also'.split(' ');
/**
 * The frame of a question about a meeting, not its subject: "what did the group discuss about …",
 * "summarize the discussion of …", "what was said in the meeting …"; with the interrogatives and
 * auxiliaries stopword's list lacks ("why", "does", "doing" would otherwise be search terms).
 */
const FRAME =
  'why when while during whose whom does did doing having mainly discuss discussed discussing discussion discussions talk talked talking think thought thinks say said says summarize summarise summary group meeting meetings opinion opinions mention mentioned explain explained describe described elaborate elaborated happened happen tell told whole recommend recommended recommendation propose proposed proposal suggest suggested suggestion agree agreed disagree disagreed reason reasons towards mates put forward idea ideas view views anyone someone anybody'.split(
    ' ',
  );
const STOP = new Set([...englishStopWords, ...SPOKEN]);
const FRAME_SET = new Set(FRAME);
const QUESTION_STOP = new Set([...STOP, ...FRAME]);
/** Words after which a frame word is the subject: "his proposal", "their idea". */
const OWNED = new Set(['his', 'her', 'their', 'its', 'our', 'my', 'your']);
/** Words after which a question names where in the meeting ("… when discussing the budget"): their terms weigh this much. */
const SETTING = new Set(['when', 'while', 'during']);
const SETTING_WEIGHT = 0.5;
const CLITIC = /['’](s|ll|re|ve|d|m|t)$|n['’]t$/;

/** Passages grow turn by turn to about this many words (a few turns of talk), … */
const PASSAGE_WORDS = 60;
/**
 * … and at most this many turns of talk; the next passage starts halfway through the last, so a
 * span falls whole in one. A listener's "mm-hmm" or "yeah, right" between two lines of an exchange
 * is no turn of it: counted, an exchange full of them would be cut after a few lines.
 */
const PASSAGE_TURNS = 8;
/** A turn with fewer content words than this is a listener's response, not a turn of talk. */
const TALK_WORDS = 2;
/** Weight of a pair of adjacent stems against a single one: a phrase matched adds to its words. */
const PAIR_WEIGHT = 0.5;
/** The title is a short field the whole meeting is about: each of its terms counts as this many of the transcript's. */
const TITLE_WEIGHT = 20;
/**
 * The notes name what a stretch of talk is about in a few words (a topic, a key point, a decision):
 * each of their terms counts as this many of the passages they cite (a topic: every passage of its
 * span), and of the meeting's, as does each of the summary's.
 */
const NOTES_WEIGHT = 2;
/** How much naming a speaker favours the passages they speak most of (1 + this × their share of the words). */
const SPEAKER_BOOST = 1;
/**
 * … and their own lines within a passage (the line's weight times 1 + this): "what did Dana think
 * of …" asks for Dana's words, which another's line on the subject does not give.
 */
const SPEAKER_LINE_BOOST = 2;
/** What a word of a speaker's name the question names weighs as a search term. */
const SPEAKER_NAME_WEIGHT = 0.1;
/** What a word of the same root as a question's word no meeting says weighs as a search term. */
const RELATED_WEIGHT = 0.7;
/** Meetings whose passages are searched when asked across meetings, and how the meeting's score adds to a passage's. */
export const ROUTED_MEETINGS = 3;
const MEETING_WEIGHT = 0.5;
/** The passages either side whose scores add to a passage's (their mean, times the weight): the talk around it. */
const CONTEXT_WEIGHT = 1;
const CONTEXT_PASSAGES = 6;
/**
 * Two citations of one meeting are at least this many segments apart: five citations show five
 * stretches of talk, not the lines around one, so a first stretch that is not the answer leaves
 * room for the one that is.
 */
export const CITATION_GAP = 8;
const K1 = 1.2;
const B = 0.75;
/**
 * BM25's k1 for a whole meeting as one document: an hour of talk names the subject it discusses
 * dozens of times and one it touches in passing a few times. At the passages' 1.2 the count stops
 * mattering after a few mentions, and a meeting that names two of the question's words in passing
 * outranks the one that talks about one of them throughout; at 2 the count weighs longer.
 */
const MEETING_K1 = 2;

const words = (text: string): string[] =>
  (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? []
  )
    .map((w) => w.replace(CLITIC, ''))
    .filter((w) => w !== '');

/** British spellings and their American forms, as whole words or word starts. */
const SPELLINGS: [RegExp, string][] = [
  // colour, favourite, behaviours, neighbouring, …
  [/^(colo|favo|behavio|flavo|hono|humo|labo|neighbo|rumo|harbo|vapo|odo|armo|savo|endeavo|vigo)ur/, '$1r'],
  // organise, realised, summarising, organisation, customisers, …
  [/^(\p{L}{3,})is(e|es|ed|ing|ation|ations|er|ers)$/u, '$1iz$2'],
  [/^(\p{L}+)ys(e|es|ed|ing)$/u, '$1yz$2'],
  [/^(cen|me|li|thea)tre(s|d)?$/, '$1ter$2'],
  [/^(fib|calib)re(s)?$/, '$1er$2'],
  [/^grey/, 'gray'],
  [/^programme(s?)$/, 'program$1'],
  [/^(catalo|dialo)gue(s?)$/, '$1g$2'],
  [/^(licen|defen|offen)ce(s?)$/, '$1se$2'],
  [/^aluminium$/, 'aluminum'],
];

/**
 * A word in one spelling: transcripts and questions mix British and American English (a recogniser
 * writes one, a person types the other), and Porter stems keep "colour" and "color" apart.
 */
function oneSpelling(word: string): string {
  for (const [pattern, replacement] of SPELLINGS) if (pattern.test(word)) return word.replace(pattern, replacement);
  return word;
}

/** A text's content stems in order (stop words, fillers left out). */
export function stemsOf(text: string): string[] {
  return words(text)
    .filter((w) => !STOP.has(w) && (w.length > 1 || /\p{N}/u.test(w)))
    .map((w) => stemmer(oneSpelling(w)));
}

const addTerms = (into: Map<string, number>, stems: string[]) => {
  stems.forEach((s, i) => {
    into.set(s, (into.get(s) ?? 0) + 1);
    if (i > 0) into.set(`${stems[i - 1]} ${s}`, (into.get(`${stems[i - 1]} ${s}`) ?? 0) + 1);
  });
};

const addWeighted = (into: Map<string, number>, from: Map<string, number>, weight: number) => {
  for (const [term, count] of from) into.set(term, (into.get(term) ?? 0) + weight * count);
};

/** A name's words, lower-cased, single letters kept ("Professor C"), digits left out ("Speaker 1" is named by its whole name only). */
const nameWords = (name: string): string[] => words(name).filter((w) => !/\p{N}/u.test(w));
/**
 * Stems to match a whole name by, in order: content words, single letters and numbers, so "Grad F"
 * is not every "Grad" of the meeting, nor "Speaker 2" every speaker.
 */
const nameStemsOf = (text: string, leaveOut: ReadonlySet<string> = STOP): string[] =>
  words(text)
    .filter((w) => w.length === 1 || /\p{N}/u.test(w) || !leaveOut.has(w))
    .map((w) => stemmer(oneSpelling(w)));

function speakersOf(speakers: MeetingTranscript['speakers']): MeetingIndex['speakers'] {
  const wordsOf = speakers.map((s) => nameWords(s.name));
  return speakers
    .map((s, i) => {
      const own = wordsOf[i]!;
      const ends = [...new Set([own[0], own.at(-1)].filter((w): w is string => w !== undefined))];
      const handles = own.length < 2 ? [] : ends.filter((w) => !wordsOf.some((other, j) => j !== i && other.includes(w)));
      // A role and a letter ("Professor C"): "the professor" is them, however it is written.
      const role = own.filter((w) => w.length > 1);
      return { id: s.id, stems: nameStemsOf(s.name), handles, role: role.length === 1 && handles.includes(role[0]!) ? role[0]! : null };
    })
    .filter((s) => s.stems.length > 0 || s.handles.length > 0);
}

export function buildMeetingIndex(meeting: MeetingTranscript): MeetingIndex {
  const stems = meeting.segments.map((s) => stemsOf(s.text));
  const segmentTerms = stems.map((list) => {
    const terms = new Map<string, number>();
    addTerms(terms, list);
    return new Set(terms.keys());
  });
  // The notes' items point at their cited segments: a topic at the whole span, other items at the lines themselves.
  const position = new Map(meeting.segments.map((s, i) => [s.id, i]));
  const notes = (meeting.notes ?? []).flatMap((note) => {
    const at = note.segmentIds.flatMap((id) => position.get(id) ?? []).sort((a, b) => a - b);
    if (at.length === 0) return [];
    const terms = new Map<string, number>();
    addTerms(terms, stemsOf(note.text));
    for (const i of at) for (const term of terms.keys()) segmentTerms[i]!.add(term);
    return note.kind === 'topic' ? [{ first: at[0]!, last: at.at(-1)!, terms }] : at.map((i) => ({ first: i, last: i, terms }));
  });
  const passages: Passage[] = [];
  let start = 0;
  while (start < meeting.segments.length) {
    let end = start;
    let count = stems[start]!.length;
    let turns = stems[start]!.length >= TALK_WORDS ? 1 : 0;
    while (end + 1 < meeting.segments.length && count < PASSAGE_WORDS && turns < PASSAGE_TURNS) {
      count += stems[++end]!.length;
      if (stems[end]!.length >= TALK_WORDS) turns++;
    }
    const terms = new Map<string, number>();
    const speakerWords = new Map<string, number>();
    for (let i = start; i <= end; i++) {
      addTerms(terms, stems[i]!);
      const speaker = meeting.segments[i]!.speakerId;
      if (speaker) speakerWords.set(speaker, (speakerWords.get(speaker) ?? 0) + stems[i]!.length);
    }
    for (const note of notes) if (note.first <= end && start <= note.last) addWeighted(terms, note.terms, NOTES_WEIGHT);
    passages.push({ first: start, last: end, terms, length: count, speakerWords });
    if (end === meeting.segments.length - 1) break;
    start = Math.max(start + 1, Math.ceil((start + end + 1) / 2));
  }
  const terms = new Map<string, number>();
  for (const list of stems) addTerms(terms, list);
  const written = new Map<string, number>();
  addTerms(written, stemsOf(meeting.summary ?? ''));
  for (const note of meeting.notes ?? []) addTerms(written, stemsOf(note.text));
  addWeighted(terms, written, NOTES_WEIGHT);
  const titleTerms = new Map<string, number>();
  addTerms(titleTerms, stemsOf(meeting.title));
  const names = new Map(meeting.speakers.map((s) => [s.id, s.name]));
  return {
    id: meeting.id,
    title: meeting.title,
    startedAtMs: Date.parse(meeting.startedAt),
    segmentIds: meeting.segments.map((s) => s.id),
    segments: meeting.segments.map((s) => ({
      speaker: s.speakerId ? (names.get(s.speakerId) ?? null) : null,
      startMs: s.startMs,
      endMs: s.endMs ?? s.startMs,
      text: s.text,
    })),
    segmentSpeakers: meeting.segments.map((s) => s.speakerId),
    segmentTerms,
    passages,
    terms,
    length: stems.reduce((sum, list) => sum + list.length, 0),
    titleTerms,
    vocabulary: [...terms.keys()].filter((t) => !t.includes(' ')).sort(),
    speakers: speakersOf(meeting.speakers),
    facts: (meeting.notes ?? []).flatMap((n): Fact[] =>
      (n.kind === 'action_item' || n.kind === 'decision') && n.segmentIds.some((id) => position.has(id))
        ? [
            {
              kind: n.kind,
              text: n.text,
              assignee: n.assignee ?? null,
              due: n.due ?? null,
              done: n.status === 'done',
              segmentIds: n.segmentIds.filter((id) => position.has(id)),
              stems: new Set(stemsOf(`${n.text} ${n.assignee ?? ''}`)),
            },
          ]
        : [],
    ),
  };
}

export type QuestionTerms = {
  /** Search terms with their weight: unigram stems 1, adjacent pairs PAIR_WEIGHT. */
  terms: Map<string, number>;
  /** The days the question names ("last week", "on March 3"), as [from, to) in ms; empty when none. */
  dates: { fromMs: number; toMs: number }[];
  /** The question's stems in order. */
  stems: string[];
  /** Its stems with single letters kept, in order (to find a speaker's whole name: "PhD A"). */
  nameStems: string[];
  /**
   * The words it uses as a name on their own, lower-cased: a capitalised word between words that
   * are not (not its first word, not "I"): "what did Dana think", "what did C say".
   */
  names: string[];
};

const DAY_MS = 86_400_000;

/**
 * A question as search terms: its content words stemmed, the frame of a question about meetings
 * left out ("what did the group discuss about"), adjacent pairs as phrases, and the dates it names
 * (read by chrono relative to `now`; a week or a month when it says so) taken out of the words.
 */
export function questionTerms(question: string, now: Date): QuestionTerms {
  let text = question.normalize('NFKC');
  const dates: { fromMs: number; toMs: number }[] = [];
  for (const found of chrono.parse(text, now)) {
    const at = found.start.date().getTime();
    const unit = /\bweek\b/i.test(found.text) ? 7 : /\bmonth\b/i.test(found.text) ? 31 : 1;
    const from = found.end ? at : unit === 1 ? Math.floor(at / DAY_MS) * DAY_MS : at - (unit / 2) * DAY_MS;
    const to = found.end ? found.end.date().getTime() + DAY_MS : unit === 1 ? from + DAY_MS : at + (unit / 2) * DAY_MS;
    dates.push({ fromMs: from - DAY_MS / 2, toMs: to + DAY_MS / 2 });
    text = text.replace(found.text, ' ');
  }
  // "… when discussing the budget": what follows when, while or during names the part of the meeting, not the subject.
  let setting = false;
  const all = words(text);
  const tagged = all.flatMap((w, i) => {
    if (SETTING.has(w)) setting = true;
    const frame = FRAME_SET.has(w) && !OWNED.has(all[i - 1] ?? '');
    return !STOP.has(w) && !frame && (w.length > 1 || /\p{N}/u.test(w)) ? [{ w, setting }] : [];
  });
  const fallback = tagged.length > 0 ? tagged : words(text).map((w) => ({ w, setting: false }));
  const kept = fallback.slice(0, 24).map((x) => ({ stem: stemmer(oneSpelling(x.w)), weight: x.setting ? SETTING_WEIGHT : 1 }));
  const stems = kept.map((k) => k.stem);
  const said = text.match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? [];
  const capital = (w: string | undefined) => w !== undefined && /^\p{Lu}/u.test(w);
  const names = said.flatMap((w, i) =>
    i > 0 && w !== 'I' && capital(w) && !capital(said[i - 1]) && !capital(said[i + 1]) ? [w.replace(CLITIC, '').toLowerCase()] : [],
  );
  const terms = new Map<string, number>();
  kept.forEach((k, i) => {
    terms.set(k.stem, Math.max(terms.get(k.stem) ?? 0, k.weight));
    if (i > 0 && stems[i - 1] !== k.stem) terms.set(`${stems[i - 1]} ${k.stem}`, PAIR_WEIGHT * Math.min(k.weight, kept[i - 1]!.weight));
  });
  return { terms, dates, stems, nameStems: nameStemsOf(text, QUESTION_STOP), names };
}

const bm25 = (tf: number, length: number, average: number, idf: number, k1 = K1) =>
  (idf * tf * (k1 + 1)) / (tf + k1 * (1 - B + (B * length) / Math.max(1, average)));
const idfOf = (total: number, df: number) => Math.log(1 + (total - df + 0.5) / (df + 0.5));

/** Whether the question says this speaker's whole name (every stem, in order). */
const saysWholeName = (speaker: MeetingIndex['speakers'][number], stems: string[]): boolean => {
  if (speaker.stems.length === 0) return false;
  for (let i = 0; i + speaker.stems.length <= stems.length; i++) if (speaker.stems.every((s, j) => stems[i + j] === s)) return true;
  return false;
};

const namesSpeaker = (speaker: MeetingIndex['speakers'][number], question: QuestionTerms): boolean =>
  saysWholeName(speaker, question.nameStems) ||
  speaker.handles.some((h) => question.names.includes(h)) ||
  (speaker.role !== null && question.nameStems.includes(stemmer(speaker.role)));

/** Speakers of the meeting the question names: by their whole name, by a handle it uses as a name, or by their role alone. */
function namedSpeakers(index: MeetingIndex, question: QuestionTerms): Set<string> {
  const named = new Set<string>();
  for (const speaker of index.speakers) if (namesSpeaker(speaker, question)) named.add(speaker.id);
  return named;
}

/** The stems (and adjacent pairs) of the names of the speakers the question names, in any of these meetings. */
function speakerNameTerms(indexes: MeetingIndex[], question: QuestionTerms): Set<string> {
  const names = new Set<string>();
  for (const index of indexes)
    for (const speaker of index.speakers)
      if (namesSpeaker(speaker, question))
        speaker.stems.forEach((s, j) => {
          names.add(s);
          if (j > 0) names.add(`${speaker.stems[j - 1]} ${s}`);
        });
  return names;
}

/**
 * A question about nothing but what someone said ("What did Dana say?"): the stretches where the
 * speakers it names talk most, each giving their longest line there, stretches apart first. Their
 * words are the whole answer, so each moment covers the question.
 */
function speakersTalk(indexes: MeetingIndex[], question: QuestionTerms, limit: number): RankedCitation[] {
  const scored: { m: MeetingIndex; p: Passage; spoken: number; speakers: Set<string> }[] = [];
  for (const m of indexes) {
    const speakers = namedSpeakers(m, question);
    if (speakers.size === 0) continue;
    for (const p of m.passages) {
      let spoken = 0;
      for (const id of speakers) spoken += p.speakerWords.get(id) ?? 0;
      if (spoken > 0) scored.push({ m, p, spoken, speakers });
    }
  }
  scored.sort((a, b) => b.spoken - a.spoken || a.m.id.localeCompare(b.m.id) || a.p.first - b.p.first);
  const best = scored[0]?.spoken ?? 1;
  const taken = new Map<string, { first: number; last: number }[]>();
  const result: RankedCitation[] = [];
  for (const gap of [CITATION_GAP, 0])
    for (const { m, p, spoken, speakers } of scored) {
      if (result.length >= limit) return result;
      const spans = taken.get(m.id) ?? [];
      if (spans.some((s) => s.first - gap <= p.last && p.first <= s.last + gap)) continue;
      spans.push({ first: p.first, last: p.last });
      taken.set(m.id, spans);
      let line = -1;
      for (let i = p.first; i <= p.last; i++)
        if (speakers.has(m.segmentSpeakers[i] ?? '') && (line < 0 || m.segments[i]!.text.length > m.segments[line]!.text.length)) line = i;
      result.push({ meetingId: m.id, segmentId: m.segmentIds[line]!, score: spoken / best, coverage: 1 });
    }
  return result;
}

/**
 * The question with the names of speakers it names weighed down: "what did the Project Manager
 * think of …" asks about what that person said (the speaker boost), not about the words "project
 * manager", which the introductions say most.
 */
function withoutSpeakerNames(question: QuestionTerms, names: ReadonlySet<string>): QuestionTerms {
  if (names.size === 0) return question;
  const terms = new Map<string, number>();
  for (const [term, weight] of question.terms) {
    const parts = term.split(' ');
    const named = parts.some((p) => names.has(p));
    const wholly = parts.every((p) => names.has(p));
    terms.set(term, wholly ? weight * SPEAKER_NAME_WEIGHT : named ? weight * 0.5 : weight);
  }
  return { ...question, terms };
}

/**
 * The question with, for each of its words no meeting searched says, the words of the same root
 * that they do say ("quotation" when the meetings say "quote", "reflection" / "reflecting"): Porter
 * stems keep derivations apart that a person means alike. A stem's root is its first letters (at
 * least four, all but the last three); related forms weigh RELATED_WEIGHT.
 */
function withRelatedForms(indexes: MeetingIndex[], question: QuestionTerms): QuestionTerms {
  const said = (term: string) => indexes.some((m) => m.terms.has(term));
  const missing = [...question.terms.keys()].filter((t) => !t.includes(' ') && t.length >= 4 && !/\p{N}/u.test(t) && !said(t));
  if (missing.length === 0) return question;
  const terms = new Map(question.terms);
  for (const stem of missing) {
    const root = stem.slice(0, Math.max(4, stem.length - 3));
    const weight = question.terms.get(stem)! * RELATED_WEIGHT;
    for (const m of indexes) {
      // The words starting with the root sit together in the sorted vocabulary; the shorter forms the stem starts with are its prefixes.
      let low = 0;
      let high = m.vocabulary.length;
      while (low < high) {
        const mid = (low + high) >> 1;
        if (m.vocabulary[mid]! < root) low = mid + 1;
        else high = mid;
      }
      for (let i = low; i < m.vocabulary.length && m.vocabulary[i]!.startsWith(root); i++)
        terms.set(m.vocabulary[i]!, Math.max(terms.get(m.vocabulary[i]!) ?? 0, weight));
      for (let n = root.length; n < stem.length; n++)
        if (m.terms.has(stem.slice(0, n))) terms.set(stem.slice(0, n), Math.max(terms.get(stem.slice(0, n)) ?? 0, weight));
    }
  }
  return { ...question, terms };
}

/** Each meeting's score for the question: BM25 over whole meetings (k1 MEETING_K1, the title a heavy field), times 2 for a date the question names. */
export function scoreMeetings(indexes: MeetingIndex[], question: QuestionTerms): Map<string, number> {
  const average = indexes.reduce((sum, m) => sum + m.length, 0) / Math.max(1, indexes.length);
  const scores = new Map<string, number>();
  for (const m of indexes) scores.set(m.id, 0);
  for (const [term, weight] of question.terms) {
    const df = indexes.filter((m) => m.terms.has(term) || m.titleTerms.has(term)).length;
    if (df === 0) continue;
    const idf = idfOf(indexes.length, df);
    for (const m of indexes) {
      const tf = (m.terms.get(term) ?? 0) + TITLE_WEIGHT * (m.titleTerms.get(term) ?? 0);
      if (tf > 0) scores.set(m.id, scores.get(m.id)! + weight * bm25(tf, m.length, average, idf, MEETING_K1));
    }
  }
  if (question.dates.length > 0)
    for (const m of indexes) {
      if (question.dates.some((d) => d.fromMs <= m.startedAtMs && m.startedAtMs < d.toMs)) scores.set(m.id, (scores.get(m.id)! + 1) * 2);
    }
  return scores;
}

/**
 * `coverage`: the share of the question's weight (its words, each by its idf among the passages
 * searched; a word no passage says counts as one said once) that the cited passage says, 0–1. What
 * tells a moment about the question from one that only shares a common word with it.
 */
export type RankedCitation = { meetingId: string; segmentId: string; score: number; coverage: number };

/**
 * The question's best moments among these meetings' indexes, best first, at most `limit`: when
 * there are more than `routed` meetings, the best `routed` by `scoreMeetings` are searched; each
 * passage scores BM25 (statistics over the passages searched) plus a share of its meeting's score,
 * more when the speaker the question names speaks most of it; each passage gives its segment with
 * the most of the question's weight (the named speaker's lines favoured), and a passage overlapping
 * or near one already taken gives nothing. The passages that say none of the question's words but
 * sit in talk that does (the discussion after its subject was named) come after all that say some.
 */
export function rankPassages(indexes: MeetingIndex[], asked: QuestionTerms, limit: number, routed = ROUTED_MEETINGS): RankedCitation[] {
  if (indexes.length === 0 || asked.terms.size === 0) return [];
  const names = speakerNameTerms(indexes, asked);
  if (names.size > 0 && [...asked.terms.keys()].every((t) => t.split(' ').every((part) => names.has(part)))) return speakersTalk(indexes, asked, limit);
  const question = withRelatedForms(indexes, withoutSpeakerNames(asked, names));
  const all = indexes.flatMap((m) => m.passages);
  const average = all.reduce((sum, p) => sum + p.length, 0) / Math.max(1, all.length);
  const idfs = new Map<string, number>();
  for (const term of question.terms.keys()) {
    let df = 0;
    for (const p of all) if (p.terms.has(term)) df++;
    if (df > 0) idfs.set(term, idfOf(all.length, df));
  }
  // The question's own words (not the related forms added for it) as coverage counts them.
  const asWords = [...asked.terms.keys()].filter((t) => !t.includes(' '));
  const wordWeight = (t: string) => (question.terms.get(t) ?? 0) * (idfs.get(t) ?? idfOf(all.length, 1));
  const wholeWeight = asWords.reduce((sum, t) => sum + wordWeight(t), 0);
  const relatedOf = new Map(
    asWords.map((t) => {
      const root = t.slice(0, Math.max(4, t.length - 3));
      return [t, [...question.terms.keys()].filter((r) => !asked.terms.has(r) && !r.includes(' ') && (r.startsWith(root) || t.startsWith(r)))];
    }),
  );
  const coverageOf = (p: Passage) => {
    if (wholeWeight <= 0) return 0;
    let said = 0;
    for (const t of asWords) {
      if (p.terms.has(t)) said += wordWeight(t);
      else if (idfs.has(t) === false && relatedOf.get(t)!.some((r) => p.terms.has(r))) said += RELATED_WEIGHT * wordWeight(t);
    }
    return said / wholeWeight;
  };
  const passageScore = (p: Passage) => {
    let score = 0;
    for (const [term, idf] of idfs) {
      const tf = p.terms.get(term);
      if (tf) score += question.terms.get(term)! * bm25(tf, p.length, average, idf);
    }
    return score;
  };
  const raw = new Map(indexes.map((m) => [m.id, m.passages.map(passageScore)]));
  const meetingScores = scoreMeetings(indexes, question);
  /** The passages of these meetings worth citing, scored, best first; `direct` when the passage says some of the question's words. */
  const candidates = (searched: MeetingIndex[]) => {
    if (searched.length === 0) return [];
    const bestMeeting = Math.max(...searched.map((m) => meetingScores.get(m.id)!));
    const scored: { m: MeetingIndex; p: Passage; score: number; direct: boolean; speakers: Set<string> }[] = [];
    for (const m of searched) {
      const scores = raw.get(m.id)!;
      const speakers = namedSpeakers(m, question);
      m.passages.forEach((p, at) => {
        // The talk around a passage: a question names its subject and the part of the meeting it was in
        // ("… when discussing the budget"), which the turns nearby may speak of more than the passage;
        // and a discussion goes on past the lines that name its subject, so a passage saying none of
        // the question's words is a candidate too, by the talk around it.
        let around = 0;
        for (let i = Math.max(0, at - CONTEXT_PASSAGES); i <= Math.min(scores.length - 1, at + CONTEXT_PASSAGES); i++) if (i !== at) around += scores[i]!;
        if (scores[at] === 0 && around === 0) return;
        let score = scores[at]! + (CONTEXT_WEIGHT * around) / (2 * CONTEXT_PASSAGES);
        if (speakers.size > 0 && p.length > 0) {
          let spoken = 0;
          for (const id of speakers) spoken += p.speakerWords.get(id) ?? 0;
          score *= 1 + SPEAKER_BOOST * (spoken / p.length);
        }
        scored.push({ m, p, score, direct: scores[at]! > 0, speakers });
      });
    }
    const bestPassage = Math.max(0, ...scored.map((x) => x.score));
    for (const x of scored) x.score = x.score / bestPassage + (bestMeeting > 0 ? (MEETING_WEIGHT * meetingScores.get(x.m.id)!) / bestMeeting : 0);
    return scored.sort((a, b) => b.score - a.score || a.m.id.localeCompare(b.m.id) || a.p.first - b.p.first);
  };
  const taken = new Map<string, { first: number; last: number }[]>();
  const result: RankedCitation[] = [];
  /**
   * Takes these passages in order up to `limit`: first those apart from the ones taken (by
   * CITATION_GAP segments), then, when too few, those near them; a passage overlapping one taken
   * never gives a citation. Each gives its segment with the most of the question's weight (the
   * named speaker's lines favoured; in a passage saying none of them, its longest line).
   */
  const take = (list: ReturnType<typeof candidates>) => {
    const used = new Set<number>();
    for (const gap of [CITATION_GAP, 0])
      list.forEach(({ m, p, score, speakers }, at) => {
        if (result.length >= limit || used.has(at)) return;
        const spans = taken.get(m.id) ?? [];
        if (spans.some((s) => s.first - gap <= p.last && p.first <= s.last + gap)) return;
        used.add(at);
        spans.push({ first: p.first, last: p.last });
        taken.set(m.id, spans);
        let best = p.first;
        let bestWeight = -1;
        for (let i = p.first; i <= p.last; i++) {
          let weight = 0;
          for (const [term, idf] of idfs) if (m.segmentTerms[i]!.has(term)) weight += question.terms.get(term)! * idf;
          if (weight > 0 && speakers.has(m.segmentSpeakers[i] ?? '')) weight *= 1 + SPEAKER_LINE_BOOST;
          if (weight > bestWeight || (weight === 0 && bestWeight === 0 && m.segments[i]!.text.length > m.segments[best]!.text.length)) {
            best = i;
            bestWeight = weight;
          }
        }
        result.push({ meetingId: m.id, segmentId: m.segmentIds[best]!, score, coverage: coverageOf(p) });
      });
  };
  const order = [...indexes].sort((a, b) => meetingScores.get(b.id)! - meetingScores.get(a.id)! || a.id.localeCompare(b.id));
  const routedFirst = candidates(order.slice(0, routed));
  let others: ReturnType<typeof candidates> | undefined;
  // The passages saying the question's words before those only near them; in each, the best few
  // meetings' first, the others' only when those hold too few.
  for (const direct of [true, false])
    for (const group of ['routed', 'others'] as const) {
      if (result.length >= limit) break;
      const list = group === 'routed' ? routedFirst : (others ??= candidates(order.slice(routed)));
      take(list.filter((x) => x.direct === direct));
    }
  return result;
}

export type Neighbour = { segmentId: string; startMs: number; speaker: string | null; text: string };

/** One cited segment with what a citation shows: its meeting's title, who spoke, when, and its neighbours. */
export type SegmentInContext = {
  meetingId: string;
  meetingTitle: string;
  segmentId: string;
  startMs: number;
  endMs: number;
  speaker: string | null;
  text: string;
  /** The segments just before and after (same meeting, transcript order). */
  before: Neighbour[];
  after: Neighbour[];
};

/**
 * These segments, in the order asked, with `around` segments either side, read from the indexes
 * searched (built from what the reader may read); an id in none of them is left out.
 */
export function segmentsInContext(indexes: MeetingIndex[], segmentIds: string[], around: number): SegmentInContext[] {
  const where = new Map<string, { index: MeetingIndex; at: number }>();
  const wanted = new Set(segmentIds);
  for (const index of indexes) index.segmentIds.forEach((id, at) => wanted.has(id) && where.set(id, { index, at }));
  const neighbour = (index: MeetingIndex, at: number): Neighbour => {
    const s = index.segments[at]!;
    return { segmentId: index.segmentIds[at]!, startMs: s.startMs, speaker: s.speaker, text: s.text };
  };
  return [...new Set(segmentIds)].flatMap((id) => {
    const found = where.get(id);
    if (!found) return [];
    const { index, at } = found;
    const s = index.segments[at]!;
    const before: Neighbour[] = [];
    for (let i = Math.max(0, at - around); i < at; i++) before.push(neighbour(index, i));
    const after: Neighbour[] = [];
    for (let i = at + 1; i <= Math.min(index.segmentIds.length - 1, at + around); i++) after.push(neighbour(index, i));
    return [
      { meetingId: index.id, meetingTitle: index.title, segmentId: id, startMs: s.startMs, endMs: s.endMs, speaker: s.speaker, text: s.text, before, after },
    ];
  });
}

/** A question about who does what ("who owns …", "what are the action items", "… by when"). */
const ASKS_ACTIONS = /\b(who|owners?|owns|responsible|assigned|assignee|action items?|tasks?|to-?dos?|follow[- ]?ups?|next steps?|deadlines?|due)\b/i;
/** A question about what was decided. */
const ASKS_DECISIONS = /\b(decid\w*|decisions?|agreed|agreement|settled|chose|chosen|conclu\w*)\b/i;
/** The words that ask for a kind of fact, not about a subject. */
const FACT_WORDS = new Set(
  stemsOf(
    'who owner owners owns own responsible assigned assignee action actions item items task tasks todo to-do follow-up follow up next step steps deadline deadlines due decide decided decision decisions agreed agreement settled chose chosen conclude concluded conclusion',
  ),
);
/** Share of the question's subject words a fact must say to answer it. */
const FACT_COVERAGE = 0.5;

export type FactAnswer = { meetingId: string; meetingTitle: string; fact: Fact };

/**
 * The action items and decisions that answer a question about them, best first, at most `limit`:
 * facts of the kind asked for, saying at least half of the question's subject words (their owner's
 * name counts); a question with no subject ("what are my action items?") lists the open ones of
 * the meetings on the dates it names, or of the latest meetings. Nothing for other questions.
 */
export function answeringFacts(indexes: MeetingIndex[], question: string, terms: QuestionTerms, limit: number): FactAnswer[] {
  const kinds = new Set<Fact['kind']>();
  if (ASKS_ACTIONS.test(question)) kinds.add('action_item');
  if (ASKS_DECISIONS.test(question)) kinds.add('decision');
  if (kinds.size === 0) return [];
  const subject = [...new Set(terms.stems.filter((s) => !FACT_WORDS.has(s)))];
  const inDates = (m: MeetingIndex) => terms.dates.length === 0 || terms.dates.some((d) => d.fromMs <= m.startedAtMs && m.startedAtMs < d.toMs);
  const found: (FactAnswer & { score: number; at: number })[] = [];
  for (const m of indexes) {
    if (!inDates(m)) continue;
    for (const fact of m.facts) {
      if (!kinds.has(fact.kind)) continue;
      if (subject.length === 0) {
        if (!fact.done) found.push({ meetingId: m.id, meetingTitle: m.title, fact, score: 1, at: m.startedAtMs });
        continue;
      }
      const said = subject.filter((s) => fact.stems.has(s)).length / subject.length;
      if (said >= FACT_COVERAGE) found.push({ meetingId: m.id, meetingTitle: m.title, fact, score: said, at: m.startedAtMs });
    }
  }
  found.sort((a, b) => b.score - a.score || b.at - a.at);
  return found.slice(0, limit).map(({ meetingId, meetingTitle, fact }) => ({ meetingId, meetingTitle, fact }));
}

/** A fact as a sentence a person reads on its own: who will do what by when, or what was decided. */
export function factSentence({ fact }: FactAnswer): string {
  const text = fact.text.replace(/[.!?\s]+$/u, '');
  if (fact.kind === 'decision') return `Decided: ${text}.`;
  const owner = fact.assignee ? `${fact.assignee}` : 'Unassigned';
  return `${owner}: ${text}${fact.due ? `, due ${fact.due}` : ''}${fact.done ? ' (done)' : ''}.`;
}
