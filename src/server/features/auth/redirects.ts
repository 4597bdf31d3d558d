/**
 * Where email links may send people (auth-contract §6 "Redirects"): the requested URL when it is on
 * the site's own scheme and host (any port for loopback hosts) or matches an allow-list glob;
 * otherwise the site URL. Stops links from being turned into open redirects.
 */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function globToRegExp(glob: string): RegExp {
  let pattern = '';
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob[i] as string;
    if (char === '*' && glob[i + 1] === '*') {
      pattern += '.*';
      i += 1;
    } else if (char === '*') {
      pattern += '[^/.]*'; // one host label or one path segment
    } else if (char === '?') {
      pattern += '[^/.]';
    } else {
      pattern += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${pattern}$`);
}

export function resolveRedirect(requested: string | undefined, siteUrl: string, allowList: readonly string[]): string {
  if (!requested) return siteUrl;
  let url: URL;
  try {
    url = new URL(requested);
  } catch {
    return siteUrl; // not an absolute URL: the site itself, as for any redirect not allowed
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return siteUrl;
  if (url.username || url.password) return siteUrl;
  const site = new URL(siteUrl);
  const sameSite = url.protocol === site.protocol && (url.host === site.host || (LOOPBACK.has(url.hostname) && url.hostname === site.hostname));
  if (sameSite) return requested;
  if (allowList.some((glob) => globToRegExp(glob).test(requested))) return requested;
  return siteUrl;
}
