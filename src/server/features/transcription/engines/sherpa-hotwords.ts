/**
 * The custom vocabulary as sherpa-onnx hotwords (contextual biasing): phrases separated by "/",
 * each a sequence of the model's own tokens separated by spaces, as OfflineRecognizer.createStream
 * takes them when the model has no BPE vocabulary file to encode words itself. Words are cut into
 * the longest tokens of tokens.txt from the left (sentencepiece's "▁" opens a word), in the case
 * the model's tokens are written in. A term with a letter the model has no token for is left out.
 */
export function hotwordsFromTokens(terms: readonly string[], tokens: ReadonlySet<string>): string | undefined {
  const upper = mostlyUpperCase(tokens);
  const longest = Math.max(1, ...[...tokens].map((t) => t.length));
  const phrases: string[] = [];
  for (const term of terms) {
    const pieces: string[] = [];
    let ok = true;
    for (const word of term.split(/\s+/).filter(Boolean)) {
      const text = `▁${upper ? word.toUpperCase() : word.toLowerCase()}`;
      let at = 0;
      while (at < text.length && ok) {
        let found: string | undefined;
        for (let length = Math.min(longest, text.length - at); length > 0 && !found; length--) {
          const piece = text.slice(at, at + length);
          if (tokens.has(piece) && piece !== '▁') found = piece;
        }
        if (!found) ok = false;
        else {
          pieces.push(found);
          at += found.length;
        }
      }
    }
    if (ok && pieces.length > 0) phrases.push(pieces.join(' '));
  }
  return phrases.length > 0 ? phrases.join('/') : undefined;
}

/** With a BPE vocabulary the recogniser encodes words itself: the terms as they are, in the tokens' case. */
export function hotwordsFromWords(terms: readonly string[], upper: boolean): string | undefined {
  const phrases = terms.map((t) => (upper ? t.toUpperCase() : t.toLowerCase()).replace(/[/:]/g, ' ').trim()).filter(Boolean);
  return phrases.length > 0 ? phrases.join('/') : undefined;
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
