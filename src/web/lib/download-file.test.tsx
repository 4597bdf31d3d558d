import { describe, expect, it } from 'vitest';
import { fileNameFrom } from './download-file.ts';

describe('fileNameFrom', () => {
  it('prefers the UTF-8 name and falls back to the plain one', () => {
    expect(fileNameFrom(`attachment; filename="Cafe reunion.pdf"; filename*=UTF-8''Caf%C3%A9%20r%C3%A9union.pdf`)).toBe('Café réunion.pdf');
    expect(fileNameFrom('attachment; filename="Weekly Team Standup.txt"')).toBe('Weekly Team Standup.txt');
    expect(fileNameFrom('inline; filename=plain.webm')).toBe('plain.webm');
    expect(fileNameFrom(`attachment; filename="ok.txt"; filename*=UTF-8''%E0%A4%A`)).toBe('ok.txt');
    expect(fileNameFrom(null)).toBeUndefined();
    expect(fileNameFrom('attachment')).toBeUndefined();
  });
});
