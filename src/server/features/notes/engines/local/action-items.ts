import type { ActionItemDraft, NotesSpeaker } from '../../notes-types.ts';
import { renderSentence } from './clean-speech.ts';
import { findDueDate, type MeetingClock } from '../../due-dates.ts';
import { findCommitments, type Commitment } from './find-commitments.ts';
import { resolveOwner } from './resolve-owner.ts';
import type { Token } from './speech-nlp.ts';
import type { Sentence } from './split-sentences.ts';

/** Words that say when, not what: "I'll do that next time" has nothing to do. */
const TIME_WORDS: ReadonlySet<string> = new Set([
  'time',
  'today',
  'tomorrow',
  'tonight',
  'week',
  'day',
  'moment',
  'minute',
  'later',
  'now',
  'soon',
  'then',
  'again',
  'first',
  'next',
  'last',
]);

const render = (tokens: Token[]) => renderSentence(tokens).replace(/[.?!]$/, '');

/** The action as an imperative: from its verb, without "please", a closing vocative or the due date's words. */
function actionText(tokens: Token[], commitment: Commitment, dueText: string | null): string {
  let action = tokens.slice(commitment.first, commitment.last + 1).filter((t) => t.lower !== 'please');
  if (commitment.name !== null && action.at(-1)?.text === commitment.name) action = action.slice(0, -1);
  const verb = action[0];
  // "would you mind emailing me…" asks for "email me…".
  if (verb && verb.lower.endsWith('ing') && verb.pos === 'VERB') action = [{ ...verb, text: verb.lemma }, ...action.slice(1)];
  let text = render(action);
  if (dueText) text = text.replace(new RegExp(`\\s*,?\\s*${dueText.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'i'), '');
  return text.replace(/[\s,]+$/, '');
}

/** Nouns that leave an action saying nothing ("have more of an idea", "sort out the thing"). */
const VAGUE_OBJECTS: ReadonlySet<string> = new Set([
  'thing',
  'stuff',
  'idea',
  'lot',
  'bit',
  'way',
  'kind',
  'sort',
  'something',
  'anything',
  'everything',
  'nothing',
  'one',
]);

/** An item says what to do to what: "Send them", "Do that next time" or "Have more of an idea" tell nobody anything. */
function isWorthAnItem(tokens: Token[], commitment: Commitment): boolean {
  const object = tokens.slice(commitment.first + 1, commitment.last + 1);
  return object.some((t) => !t.isStop && /^(NOUN|PROPN|NUM)$/.test(t.pos) && !TIME_WORDS.has(t.lower) && !VAGUE_OBJECTS.has(t.lemma));
}

/** Every commitment and request of the meeting as an action item: owner, due date, the segment it was said in. */
export function findActionItems(sentences: Sentence[], speakers: NotesSpeaker[], clock: MeetingClock | undefined): ActionItemDraft[] {
  const items: ActionItemDraft[] = [];
  const seen = new Set<string>();
  for (const sentence of sentences) {
    for (const commitment of findCommitments(sentence)) {
      if (!isWorthAnItem(sentence.tokens, commitment)) continue;
      const due = findDueDate(render(sentence.tokens.slice(commitment.first)), clock);
      const text = actionText(sentence.tokens, commitment, due?.dueText ?? null);
      const owner = resolveOwner(commitment, sentence.speakerId, speakers);
      const key = `${owner.assignee ?? ''}|${text.toLowerCase()}`;
      if (text === '' || seen.has(key)) continue;
      seen.add(key);
      items.push({ text, segmentIds: [sentence.segmentId], ...owner, due: due?.due ?? null, dueText: due?.dueText ?? null });
    }
  }
  return mergeNearDuplicates(items);
}

/** Words that tell two wordings of a task apart no more than their order does. */
const LINKING: ReadonlySet<string> = new Set([
  'the',
  'a',
  'an',
  'to',
  'for',
  'of',
  'and',
  'with',
  'on',
  'in',
  'at',
  'it',
  'them',
  'our',
  'your',
  'this',
  'that',
]);
const taskWords = (text: string) => new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !LINKING.has(w)));

/**
 * The same task said twice in other words ("Book the venue" asked, "book the venue for the launch
 * party" promised) is one item: same owner (or one unnamed), one's words all in the other's or most
 * of them shared. The fuller wording stays, with both moments, the owner and the first due date said.
 */
function mergeNearDuplicates(items: ActionItemDraft[]): ActionItemDraft[] {
  const merged: ActionItemDraft[] = [];
  for (const item of items) {
    const words = taskWords(item.text);
    const same = merged.findIndex((m) => {
      if (m.assignee !== null && item.assignee !== null && m.assignee !== item.assignee) return false;
      const other = taskWords(m.text);
      const shared = [...words].filter((w) => other.has(w)).length;
      return shared === Math.min(words.size, other.size) || shared / new Set([...words, ...other]).size >= 0.6;
    });
    if (same < 0) {
      merged.push(item);
      continue;
    }
    const kept = merged[same]!;
    const owner = kept.assignee !== null ? kept : item;
    const due = kept.due !== null ? kept : item;
    merged[same] = {
      text: item.text.length > kept.text.length ? item.text : kept.text,
      segmentIds: [...new Set([...kept.segmentIds, ...item.segmentIds])],
      assignee: owner.assignee,
      assigneeSpeakerId: owner.assigneeSpeakerId,
      due: due.due,
      dueText: due.dueText,
    };
  }
  return merged;
}
