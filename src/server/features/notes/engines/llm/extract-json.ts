/**
 * The JSON object in a model's answer: the whole answer when it is JSON, otherwise the first
 * balanced `{…}` in it that parses (models in plain-text mode wrap it in prose or ``` fences).
 * Nothing is repaired: a truncated or broken object is a failed answer, retried or split, so no
 * half-read answer passes for a whole one.
 */
export function extractJson(text: string): unknown {
  const whole = tryParse(text.trim());
  if (whole !== undefined) return whole;
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    const end = matchingBrace(text, start);
    const candidate = end === undefined ? undefined : tryParse(text.slice(start, end + 1));
    if (candidate !== undefined) return candidate;
  }
  return undefined;
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // not JSON: the caller looks further
  }
}

/** Index of the `}` closing the `{` at `start`, skipping braces inside strings. */
function matchingBrace(text: string, start: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i;
  }
  return undefined;
}
