/**
 * Content-Disposition for downloads (RFC 6266): a plain ASCII `filename` every client understands
 * and, when the real name is not ASCII, `filename*` in UTF-8 (RFC 8187) which modern browsers prefer.
 */

const FORBIDDEN = /[\p{Cc}"*/:<>?\\|]+/gu; // control characters and what Windows, macOS or the header forbid

/** A title as a file name: no path separators or reserved characters, trimmed, at most 100 characters. */
export function safeFileStem(title: string): string {
  const cleaned = title
    .normalize('NFC')
    .replace(FORBIDDEN, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, '');
  const stem = Array.from(cleaned).slice(0, 100).join('').trim();
  return stem || 'meeting';
}

/** The ASCII fallback: accents dropped (é → e), anything else non-ASCII or '%' (which some clients decode) as '_'. */
function asciiFallback(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^\x20-\x7e]|%/g, '_')
    .replace(/_+/g, '_');
}

/** RFC 8187 value-chars: encodeURIComponent leaves ' ( ) * unescaped, which attr-char does not allow. */
const encodeExtValue = (value: string) => encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function contentDisposition(fileName: string, type: 'attachment' | 'inline' = 'attachment'): string {
  const fallback = asciiFallback(fileName);
  const header = `${type}; filename="${fallback}"`;
  return fallback === fileName ? header : `${header}; filename*=UTF-8''${encodeExtValue(fileName)}`;
}
