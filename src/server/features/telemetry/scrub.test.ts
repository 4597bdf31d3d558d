import { describe, expect, it } from 'vitest';
import { scrubPath, scrubText } from './scrub.ts';

describe('scrubText: what never leaves in an error report', () => {
  it.each([
    ['Could not email ada.lovelace@example.com about it', 'Could not email [email] about it'],
    ['jwt eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl expired', 'jwt [token] expired'],
    ['token prly_abcDEF123_xyz was revoked', 'token [token] was revoked'],
    ['Authorization: Bearer abc.def-ghi', 'Authorization: [redacted] [token]'],
    ['{"password":"hunter2","name":"x"}', '{"password":"[redacted]","name":"x"}'],
    ['api_key=sk-12345 and secret: s3cr3t', 'api_key=[redacted] and secret: [redacted]'],
    ['GET https://host.example/reset?code=123456&email=a%40b.c failed', 'GET https://host.example/reset failed'],
    ['postgres://parley:pa55@db.internal:5432/parley refused', 'postgres://[redacted]@db.internal:5432/parley refused'],
    ['meeting 3f2b8c1e-9a4d-4e5f-8b6a-1c2d3e4f5a6b not found', 'meeting [id] not found'],
    ['/shared/Zx9aQ2bW7cE4dR1fT6gY3hU8jI5kO0lPqrs failed', '/shared/[token] failed'],
  ])('%s', (input, expected) => {
    expect(scrubText(input)).toBe(expected);
  });

  it('keeps what says what failed: messages, code paths, line numbers, error names', () => {
    const stack = 'TypeError: Cannot read properties of undefined (reading "title")\n    at presentMeeting (/app/dist/server/main.js:1234:56)';
    expect(scrubText(stack)).toBe(stack);
  });
});

describe('scrubPath', () => {
  it('drops the query and the fragment and replaces ids', () => {
    expect(scrubPath('/meetings/3f2b8c1e-9a4d-4e5f-8b6a-1c2d3e4f5a6b?tab=notes#x')).toBe('/meetings/[id]');
  });
});
