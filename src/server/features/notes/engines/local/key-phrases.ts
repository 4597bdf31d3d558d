import { contentStems } from '../../content-words.ts';
import type { Token } from './speech-nlp.ts';

/** A noun phrase said in the meeting: its lemma key (for counting) and the words as said. */
export type Phrase = { key: string; words: string; /** Proper nouns alone ("Jeff Buckley", "San Diego"): a name, not a subject. */ named: boolean };

/** Longer runs are lists of nouns rather than one name ("remote control battery life cost"). */
const MAX_PHRASE_WORDS = 3;
/** Nouns that name nothing a topic could be called by, though wink tags them as nouns. */
const VAGUE_NOUNS: ReadonlySet<string> = new Set<string>(
  [
    'thing stuff lot bit way kind sort idea point time minute moment question problem answer reason example fact sense',
    'something anything everything nothing people guy one yes gonna wanna cause',
    'meeting life course lunch number part end start today week day year name word six sixes',
    // When something happens is not what it is about: "Friday" named a stand-up's only topic.
    'monday tuesday wednesday thursday friday saturday sunday weekend tomorrow yesterday tonight morning afternoon evening',
    'january february march april may june july august september october november december month hour',
  ].flatMap((line) => line.split(' ')),
);

const isNounLike = (t: Token) => (t.pos === 'NOUN' || t.pos === 'PROPN') && !t.isStop;
const isModifier = (t: Token) => isNounLike(t) || (t.pos === 'ADJ' && !t.isStop);
const isPlainWord = (t: Token) => /^\p{L}[\p{L}-]*\p{L}$/u.test(t.text);

function phraseOf(run: Token[]): Phrase | undefined {
  // A phrase ends on its head noun; trailing adjectives ("the battery low") are not part of it.
  let end = run.length;
  while (end > 0 && !isNounLike(run[end - 1]!)) end--;
  const words = run.slice(Math.max(0, end - MAX_PHRASE_WORDS), end);
  const head = words.at(-1);
  // A head of one or two letters is a broken-off word ("th") more often than a name ("TV").
  const vague = (w: Token) => VAGUE_NOUNS.has(w.lemma) || VAGUE_NOUNS.has(w.lower);
  if (!head || head.text.length < 3 || vague(head) || words.every(vague)) return undefined;
  const said = words.map((w) => (w.pos === 'PROPN' ? w.text : w.lower)).join(' ');
  // A name of function words alone ("Like", tagged a noun) says nothing, and no citation could hold it.
  if (contentStems(said).size === 0) return undefined;
  return { key: words.map((w) => w.lemma).join(' '), words: said, named: words.every((w) => w.pos === 'PROPN') };
}

/** "touch", "-", "pad" as the one word "touch-pad", tagged as its last part, so a phrase can hold it. */
function joinHyphenated(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const [dash, next, previous] = [tokens[i]!, tokens[i + 1], out.at(-1)];
    if (dash.text === '-' && dash.space === '' && next?.space === '' && previous && /\p{L}$/u.test(previous.text) && /^\p{L}/u.test(next.text)) {
      const text = `${previous.text}-${next.text}`;
      out[out.length - 1] = { ...next, text, lower: text.toLowerCase(), lemma: `${previous.lower}-${next.lemma}`, space: previous.space };
      i++;
    } else out.push(dash);
  }
  return out;
}

/** The noun phrases of a cleaned sentence: runs of adjectives and nouns ending on a noun. */
export function nounPhrases(tokens: Token[]): Phrase[] {
  tokens = joinHyphenated(tokens);
  const phrases: Phrase[] = [];
  let run: Token[] = [];
  const close = () => {
    const phrase = run.length > 0 ? phraseOf(run) : undefined;
    if (phrase) phrases.push(phrase);
    run = [];
  };
  for (const token of tokens) {
    if (isModifier(token) && isPlainWord(token)) run.push(token);
    else close();
  }
  close();
  return phrases;
}
