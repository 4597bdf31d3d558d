import { beforeEach, describe, expect, it } from 'vitest';
import { peekReturnTo, rememberReturnTo, takeReturnTo } from './return-to.ts';

beforeEach(() => localStorage.clear());

describe('the way back after /auth', () => {
  it('keeps an invitation’s address until it is taken, once', () => {
    rememberReturnTo('/invite/abc_DEF-123');
    expect(peekReturnTo()).toBe('/invite/abc_DEF-123');
    expect(peekReturnTo()).toBe('/invite/abc_DEF-123');
    expect(takeReturnTo()).toBe('/invite/abc_DEF-123');
    expect(takeReturnTo()).toBeNull();
  });

  it('never keeps or gives back anything but an invitation on this site', () => {
    for (const path of [
      'https://evil.example.com/invite/abc',
      '//evil.example.com/invite/abc',
      '/settings',
      '/invite/',
      '/invite/abc/../../x',
      '/invite/abc?x=1',
    ]) {
      rememberReturnTo(path);
      expect(peekReturnTo(), path).toBeNull();
    }
    // Something else wrote the key (another script, an old version): still refused.
    localStorage.setItem('parley.returnTo', 'https://evil.example.com');
    expect(takeReturnTo()).toBeNull();
  });
});
