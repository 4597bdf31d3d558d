/**
 * The custom vocabulary as sherpa-onnx hotwords (contextual biasing): phrases separated by "/", the
 * words as they are, which the recogniser cuts into the model's tokens itself with a BPE vocabulary
 * (the model's bpe.vocab, or one made from its tokens.txt: bpeVocabFromTokens). Without one,
 * sherpa-onnx reads hotwords as CJK characters, and a word piece such as "▁qu" never encodes.
 *
 * sherpa-onnx drops every hotword of a stream when one of them holds a piece the model has no
 * token for, so a term the tokens cannot spell is left out here, and the others still count.
 */
export function hotwordsFromWords(terms: readonly string[], tokens: ReadonlySet<string>): string | undefined {
  const upper = mostlyUpperCase(tokens);
  const longest = Math.max(1, ...[...tokens].map((t) => t.length));
  const phrases = terms
    .map((t) => (upper ? t.toUpperCase() : t.toLowerCase()).replace(/[/:]/g, ' ').trim())
    .filter((phrase) => phrase !== '' && phrase.split(/\s+/).every((word) => spellable(word, tokens, longest)));
  return phrases.length > 0 ? phrases.join('/') : undefined;
}

/** Whether a word can be cut into the tokens (longest first from the left, none over `longest`; "▁" opens a word). */
function spellable(word: string, tokens: ReadonlySet<string>, longest: number): boolean {
  const text = `▁${word}`;
  let at = 0;
  while (at < text.length) {
    let length = Math.min(longest, text.length - at);
    while (length > 0 && !(tokens.has(text.slice(at, at + length)) && text.slice(at, at + length) !== '▁')) length--;
    if (length === 0) return false;
    at += length;
  }
  return true;
}

/**
 * A sentencepiece vocabulary (piece, tab, score a line) from tokens.txt, for a model that ships
 * none: the pieces in their order, each scored below the one before, as sentencepiece writes a BPE
 * model's merges (earlier, more frequent pieces first). Special tokens (<blk>, <unk>, <s>…) are not pieces.
 */
export function bpeVocabFromTokens(tokensText: string): string {
  const pieces = [...parseTokens(tokensText)].filter((token) => !/^<.*>$/.test(token));
  return pieces.map((piece, i) => `${piece}\t${-i}\n`).join('');
}

/** Whether the model's word tokens are written in capitals (LibriSpeech-trained zipformers) rather than lower case (NeMo). */
export function mostlyUpperCase(tokens: ReadonlySet<string>): boolean {
  let upper = 0;
  let lower = 0;
  for (const token of tokens) {
    if (/\p{Lu}/u.test(token)) upper++;
    if (/\p{Ll}/u.test(token)) lower++;
  }
  return upper > lower;
}

/** tokens.txt: one "<token> <id>" a line. */
export function parseTokens(text: string): Set<string> {
  const tokens = new Set<string>();
  for (const line of text.split('\n')) {
    const token = line.trim().split(/\s+/)[0];
    if (token) tokens.add(token);
  }
  return tokens;
}
