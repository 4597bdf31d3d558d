import type { LoggerOptions } from 'pino';

/**
 * Pino options for the server. Credentials never reach the log: auth headers, cookies and any
 * token- or password-like field are redacted, and request logs carry the path without the query
 * (verify links put tokens in the query string), and share-link tokens are masked in paths.
 */
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
        // A share link's token is the only key to it: keep it out of the log.
        url: (req.url.split('?')[0] ?? '').replace(/\/shared\/[^/]+/, '/shared/[redacted]'),
        ip: req.ip,
        id: req.id,
      }),
    },
  };
}
