import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from './logger.ts';

/** The request log line pino writes for a request to `url`, as an operator reads it. */
function loggedUrl(url: string): string {
  const lines: string[] = [];
  const sink = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      lines.push(chunk.toString());
      done();
    },
  });
  const log = pino(loggerOptions('info'), sink);
  log.info({ req: { method: 'GET', url, ip: '127.0.0.1', id: 'req-1' } }, 'incoming request');
  return (JSON.parse(lines[0]!) as { req: { url: string } }).req.url;
}

describe('the request log', () => {
  const token = 'fE2bQ9xV7kL1mN3pR5sT8uW0yZ4aC6dH8jK2nP4qS6t';

  it('keeps a share link’s token out, as before', () => {
    expect(loggedUrl(`/api/v1/shared/${token}`)).toBe('/api/v1/shared/[redacted]');
    expect(loggedUrl(`/shared/${token}`)).toBe('/shared/[redacted]');
  });

  it('keeps a team invitation’s token out: its preview, its accept and its page', () => {
    expect(loggedUrl(`/api/v1/invitations/${token}`)).toBe('/api/v1/invitations/[redacted]');
    expect(loggedUrl(`/api/v1/invitations/${token}/accept`)).toBe('/api/v1/invitations/[redacted]/accept');
    expect(loggedUrl(`/invite/${token}?from=email`)).toBe('/invite/[redacted]');
  });

  it('keeps the ids that are no credential: a team’s invitation by id', () => {
    const path = '/api/v1/teams/5b0d7c2e-8f1a-4c3b-9d2e-7a6f5e4d3c2b/invitations/0f9e8d7c-6b5a-4938-8271-605f4e3d2c1b';
    expect(loggedUrl(path)).toBe(path);
  });
});
