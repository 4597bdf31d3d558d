import { describe, expect, it } from 'vitest';
import { resolveRedirect } from './redirects.ts';

const SITE = 'https://parley.example.com';

describe('resolveRedirect', () => {
  it('keeps URLs on the site itself', () => {
    expect(resolveRedirect('https://parley.example.com/reset?x=1', SITE, [])).toBe('https://parley.example.com/reset?x=1');
  });
  it('falls back to the site URL for other hosts, schemes and junk', () => {
    expect(resolveRedirect('https://evil.example.net/', SITE, [])).toBe(SITE);
    expect(resolveRedirect('http://parley.example.com/', SITE, [])).toBe(SITE);
    expect(resolveRedirect('javascript:alert(1)', SITE, [])).toBe(SITE);
    expect(resolveRedirect('https://user:pw@parley.example.com/', SITE, [])).toBe(SITE);
    expect(resolveRedirect('not a url', SITE, [])).toBe(SITE);
    expect(resolveRedirect(undefined, SITE, [])).toBe(SITE);
  });
  it('allows any port on a loopback site', () => {
    expect(resolveRedirect('http://localhost:5173/auth', 'http://localhost:3000', [])).toBe('http://localhost:5173/auth');
    expect(resolveRedirect('http://127.0.0.1:5173/auth', 'http://localhost:3000', [])).toBe('http://localhost:3000');
  });
  it('matches allow-list globs, with * never crossing a dot or a slash', () => {
    const allow = ['https://*.preview.example.org/**'];
    expect(resolveRedirect('https://pr-7.preview.example.org/reset', SITE, allow)).toBe('https://pr-7.preview.example.org/reset');
    expect(resolveRedirect('https://a.b.preview.example.org/reset', SITE, allow)).toBe(SITE);
    expect(resolveRedirect('https://evil.org/?https://x.preview.example.org/', SITE, allow)).toBe(SITE);
  });
});
