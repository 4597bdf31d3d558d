import { LINE_BREAK } from './transcript-lines.ts';

export const TRANSCRIPT_FORMATS = ['vtt', 'srt', 'text'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

/**
 * Which reader a file needs. The content decides where it is unmistakable (a WEBVTT header; a
 * first block of a number and a timing line), since people rename files and exports come as .txt;
 * otherwise the extension does, and anything else is plain text.
 */
export function detectFormat(fileName: string, content: string): TranscriptFormat {
  const lines = content
    .replace(/^\uFEFF/, '')
    .split(LINE_BREAK)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const [first = '', second = ''] = lines;
  if (/^WEBVTT(?:\s|$)/.test(first)) return 'vtt';
  const extension = /\.([^.]+)$/.exec(fileName.trim())?.[1]?.toLowerCase();
  if (extension === 'vtt') return 'vtt';
  if (extension === 'srt') return 'srt';
  if ((/^\d+$/.test(first) && second.includes('-->')) || first.includes('-->')) return 'srt';
  return 'text';
}
