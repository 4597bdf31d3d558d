import { afterEach, describe, expect, it } from 'vitest';
import { PRIVACY_CHOICES, PRIVACY_DEFAULTS, RECORDING_CHOICES, RECORDING_DEFAULTS } from './preferences.ts';
import { readSettings, storageKey, writeSettings } from './stored-settings.ts';

afterEach(() => window.localStorage.clear());

const KEY = storageKey('recording', 'user-1');

describe('settings kept in localStorage', () => {
  it('starts from the spec defaults when nothing is stored', () => {
    expect(readSettings(KEY, RECORDING_DEFAULTS, RECORDING_CHOICES)).toEqual({
      quality: 'high',
      format: 'mp3',
      speakerDiarization: true,
      automaticPunctuation: true,
      fillerWordRemoval: false,
      aiSummary: true,
    });
    expect(readSettings(storageKey('privacy', 'user-1'), PRIVACY_DEFAULTS, PRIVACY_CHOICES).autoDelete).toBe('90days');
  });

  it('reads back what was written', () => {
    expect(writeSettings(KEY, { ...RECORDING_DEFAULTS, quality: 'ultra', fillerWordRemoval: true })).toBe(true);
    expect(readSettings(KEY, RECORDING_DEFAULTS, RECORDING_CHOICES)).toMatchObject({ quality: 'ultra', fillerWordRemoval: true });
  });

  it('keeps one entry per tab and per account', () => {
    expect(storageKey('billing', 'a')).not.toBe(storageKey('billing', 'b'));
    expect(storageKey('billing', 'a')).not.toBe(storageKey('privacy', 'a'));
  });

  it('falls back field by field: wrong types, unknown choices and extra fields are dropped', () => {
    window.localStorage.setItem(KEY, JSON.stringify({ quality: 'lossless', format: 'wav', speakerDiarization: 'yes', aiSummary: false, injected: '<b>' }));
    const read = readSettings(KEY, RECORDING_DEFAULTS, RECORDING_CHOICES);
    expect(read).toEqual({ ...RECORDING_DEFAULTS, format: 'wav', aiSummary: false });
    expect(read).not.toHaveProperty('injected');
  });

  it('ignores an entry that is not a JSON object', () => {
    for (const raw of ['{not json', '[1,2]', '"high"', 'null', '42']) {
      window.localStorage.setItem(KEY, raw);
      expect(readSettings(KEY, RECORDING_DEFAULTS, RECORDING_CHOICES)).toEqual(RECORDING_DEFAULTS);
    }
  });
});
