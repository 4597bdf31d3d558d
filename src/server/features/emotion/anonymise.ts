/**
 * A transcript line as the emotion provider may read it: names, email addresses, links and numbers
 * taken out, so what leaves the server says how something was said, not who said it, to whom, or
 * what it cost. Names are the meeting's known ones (its speakers) and any capitalised word that does
 * not start a sentence (a person, a company, a product, a place): more goes than strictly must.
 */
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;
const LINK = /\b(?:https?:\/\/|www\.)\S+/gi;
// Digits with what binds them: amounts, dates, times, phone numbers, percentages, ordinals.
const NUMBER = /[+$€£¥#]?\d(?:[\d.,:/-]*\d)?(?:%|(?:st|nd|rd|th|k|m|bn)\b)?/gi;
const NUMBER_WORDS =
  /\b(?:zero|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|trillion|dozen)(?:[\s-]+(?:and[\s-]+)?(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|trillion))*\b/gi;
const TITLE = /\b(?:Mr|Mrs|Ms|Mx|Dr|Prof)\.?\s+\p{Lu}[\p{L}'’-]*/gu;
/** Capitalised words that are no name: the pronoun I and its contractions. */
const NOT_NAMES = new Set(['I', "I'm", 'I’m', "I've", 'I’ve', "I'll", 'I’ll', "I'd", 'I’d', 'OK', 'Okay']);

export function anonymise(text: string, knownNames: readonly string[]): string {
  let out = text.replace(EMAIL, '[email]').replace(LINK, '[link]').replace(TITLE, '[name]');
  for (const name of knownNames) {
    for (const part of new Set([name, ...name.split(/\s+/)])) {
      if (part.length < 2) continue;
      out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escape(part)}(?![\\p{L}\\p{N}])`, 'giu'), '[name]');
    }
  }
  out = out.replace(NUMBER, '[number]').replace(NUMBER_WORDS, '[number]');
  return replaceProperNouns(out);
}

/** A capitalised word after the first of its sentence is taken for a name; runs of them become one. */
function replaceProperNouns(text: string): string {
  let sentenceStart = true;
  return text
    .split(/(\s+)/)
    .map((token) => {
      if (/^\s+$/.test(token) || token === '') return token;
      const word = token.replace(/^[("'“‘[]+|[)"'”’\],.!?;:]+$/g, '');
      const startsSentence = sentenceStart;
      sentenceStart = /[.!?]["'”’)]*$/.test(token);
      if (startsSentence || word === '' || NOT_NAMES.has(word) || word.startsWith('[') || !/^\p{Lu}/u.test(word)) return token;
      return token.replace(word, '[name]');
    })
    .join('')
    .replace(/\[name\](?:\s+\[name\])+/g, '[name]');
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
