import { describe, expect, it } from 'vitest';
import { isApiPath } from './spa.ts';

describe('isApiPath', () => {
  it('claims the server prefixes', () => {
    for (const url of ['/api/v1/meetings', '/auth/v1/token?grant_type=password', '/uploads/abc', '/realtime', '/realtime/x', '/app-config.js']) {
      expect(isApiPath(url), url).toBe(true);
    }
  });
  it('leaves the web app its pages, including /auth', () => {
    for (const url of ['/', '/auth', '/auth?tab=signup', '/authors', '/apiary', '/realtimes', '/dashboard', '/app-config.json']) {
      expect(isApiPath(url), url).toBe(false);
    }
  });
});
