import { describe, expect, it } from 'vitest';
import { contentDisposition, safeFileStem } from './content-disposition.ts';

describe('safeFileStem', () => {
  it('drops path separators and reserved characters, and trims', () => {
    expect(safeFileStem('  Q3 / Q4: "Plan" <draft>?  ')).toBe('Q3 Q4 Plan draft');
    expect(safeFileStem('../../etc/passwd')).toBe('etc passwd');
    expect(safeFileStem('line\nbreak\ttab')).toBe('line break tab');
  });

  it('falls back to "meeting" when nothing is left and caps the length', () => {
    expect(safeFileStem('///')).toBe('meeting');
    expect(safeFileStem('...')).toBe('meeting');
    expect(Array.from(safeFileStem('é'.repeat(300)))).toHaveLength(100);
  });
});

describe('contentDisposition', () => {
  it('is a plain filename for ASCII names', () => {
    expect(contentDisposition('Weekly Team Standup.txt')).toBe('attachment; filename="Weekly Team Standup.txt"');
    expect(contentDisposition('a.mp3', 'inline')).toBe('inline; filename="a.mp3"');
  });

  it('adds RFC 8187 filename* for other names, with an ASCII fallback', () => {
    expect(contentDisposition('Café réunion.pdf')).toBe(`attachment; filename="Cafe reunion.pdf"; filename*=UTF-8''Caf%C3%A9%20r%C3%A9union.pdf`);
    expect(contentDisposition('会议.txt')).toBe(`attachment; filename="_.txt"; filename*=UTF-8''%E4%BC%9A%E8%AE%AE.txt`);
    expect(contentDisposition("Bob's (draft) 100%.srt")).toBe(
      `attachment; filename="Bob's (draft) 100_.srt"; filename*=UTF-8''Bob%27s%20%28draft%29%20100%25.srt`,
    );
  });
});
