import type { LoggerOptions } from 'pino';

/**
 * Pino options for the server. Credentials never reach the log: auth headers, cookies and any
 * token- or password-like field are redacted, and request logs carry the path without the query
 * (verify links put tokens in the query string), and the tokens of share links and team
 * invitations are masked in paths.
 */

/** Paths whose next segment is a token that alone opens something: a share link, a team invitation (API and page). */
const TOKEN_IN_PATH = /^((?:\/api\/v1)?\/(?:shared|invitations|invite))\/[^/]+/;

/** The request's path as the log keeps it: no query string, no token. */
function loggablePath(url: string): string {
  return (url.split('?')[0] ?? '').replace(TOKEN_IN_PATH, '$1/[redacted]');
}

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.apikey',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        '*.password',
        '*.access_token',
        '*.refresh_token',
        '*.token',
        '*.token_hash',
        '*.anonKey',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string; id?: string }) => ({
        method: req.method,
        // A share link's or an invitation's token is the only key to it: keep it out of the log.
        url: loggablePath(req.url),
        ip: req.ip,
        id: req.id,
      }),
    },
  };
}
