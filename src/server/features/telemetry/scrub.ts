/**
 * What is taken out of an error report or a usage event before it leaves the server: email
 * addresses, tokens (JWTs, personal API tokens, bearer and basic credentials, long random strings),
 * secrets written as `name=value`, credentials in URLs, query strings, and ids (UUIDs). The
 * operator's collector learns what failed and where in the code, not who or with what.
 */
const RULES: readonly [RegExp, string][] = [
  // user:password@ in a URL, before the email rule could read it as an address.
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, '$1[redacted]@'],
  [/[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu, '[email]'],
  [/\beyJ[\w-]*\.[\w-]+\.[\w-]*/g, '[token]'],
  [/\bprly_[\w-]+/g, '[token]'],
  [/\b(bearer|basic|token)\s+[\w.~+/=-]+/gi, '$1 [token]'],
  // "password": "…", password=…, api_key: …; the name stays, the value goes.
  [
    /((?:pass(?:word|wd)?|secret|token|api[_-]?key|apikey|authorization|cookie|session|dsn|credential|private[_-]?key)[\w-]*["']?\s*[:=]\s*["']?)[^\s"',;&]+/gi,
    '$1[redacted]',
  ],
  // Query strings carry tokens (email links, signed URLs): the path says enough.
  [/(\bhttps?:\/\/[^\s?#"']*|(?:^|[\s"'(])\/[\w./-]*)\?[^\s"')]*/g, '$1'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '[id]'],
  // Share links, reset codes and other random strings: 32 or more base64url characters with a digit in them.
  [/\b(?=[\w-]*\d)[\w-]{32,}\b/g, '[token]'],
];

export function scrubText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  return out;
}

/** A path as a report may name it: ids and tokens replaced, no query string or fragment. */
export function scrubPath(path: string): string {
  return scrubText(path.split(/[?#]/)[0] ?? '');
}
