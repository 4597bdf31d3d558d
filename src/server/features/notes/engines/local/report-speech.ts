import type { Token } from './speech-nlp.ts';

/**
 * A sentence said by the group ("we…") as the minutes report it ("the group…"): the first "we"
 * becomes "the group", later ones "they", and "us", "our" follow. Verbs keep their plural form,
 * as British English does with a collective noun ("the group are", "the group have decided").
 */
const GROUP_FORMS: Readonly<Record<string, string>> = { us: 'them', our: 'their', ours: 'theirs', ourselves: 'themselves' };
const CONTRACTED: Readonly<Record<string, string>> = { "'re": 'are', "'ve": 'have', "'ll": 'will', "'d": 'would' };
const WE_CONTRACTED = /^we('re|'ve|'ll|'d)$/i;

const withText = (token: Token, text: string, space = token.space): Token => ({ ...token, text, lower: text.toLowerCase(), space });

/** The sentence's tokens with the group in the third person; other words as they were. */
export function reportGroupSpeech(tokens: Token[]): Token[] {
  let named = false;
  const subject = () => {
    const text = named ? 'they' : 'the group';
    named = true;
    return text;
  };
  return tokens.flatMap((token, i) => {
    const lower = token.lower.replace(/’/g, "'");
    if (lower === 'we') return [withText(token, subject())];
    const whole = WE_CONTRACTED.exec(lower);
    if (whole) return [withText(token, subject()), withText(token, CONTRACTED[whole[1]!.toLowerCase()]!, ' ')];
    // "'re" after "we" was "are": the contraction only reads after a pronoun.
    if (CONTRACTED[lower] && tokens[i - 1]?.lower === 'we') return [withText(token, CONTRACTED[lower], ' ')];
    // "US" in capitals is the country, not "us".
    if (GROUP_FORMS[lower] && token.text !== 'US') return [withText(token, GROUP_FORMS[lower])];
    return [token];
  });
}
