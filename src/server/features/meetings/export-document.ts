import type { MeetingDetail } from '#shared/contracts/meetings.ts';

/**
 * The one shape every export format renders: a meeting's heading facts and its transcript lines
 * with speakers resolved to their display names. Built once, so TXT, DOCX, PDF, SRT and VTT can
 * never disagree about who said what.
 */
export type ExportLine = { startMs: number; endMs: number; speaker: string | null; text: string };

export type ExportDocument = {
  title: string;
  /** A human date in UTC: the server does not know the reader's time zone. */
  dateLabel: string;
  durationLabel: string;
  participants: string[];
  summary: string | null;
  lines: ExportLine[];
};

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

export function formatDuration(totalSeconds: number): string {
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (hours > 0) return `${hours}h ${minutes}m`;
  if (minutes > 0) return `${minutes} min`;
  return `${seconds} s`;
}

/** "[mm:ss]" for the transcript, growing to "[h:mm:ss]" past an hour rather than showing 75:00. */
export function clockStamp(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const mm = String(Math.floor((total % 3600) / 60)).padStart(2, '0');
  const ss = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** Single-line text: captions end at a blank line and every format here prints one line per segment. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

export function toExportDocument(
  meeting: Pick<MeetingDetail, 'title' | 'startedAt' | 'durationSeconds' | 'participants' | 'summary' | 'speakers' | 'segments'>,
): ExportDocument {
  const names = new Map(meeting.speakers.map((s) => [s.id, s.displayName?.trim() || s.label]));
  return {
    title: meeting.title,
    dateLabel: `${dateFormat.format(new Date(meeting.startedAt))} UTC`,
    durationLabel: formatDuration(meeting.durationSeconds),
    participants: meeting.participants,
    summary: meeting.summary?.trim() || null,
    lines: meeting.segments
      .map((s) => ({
        startMs: s.startMs,
        endMs: Math.max(s.endMs, s.startMs),
        speaker: s.speakerId ? (names.get(s.speakerId) ?? null) : null,
        text: oneLine(s.text),
      }))
      .filter((line) => line.text !== ''),
  };
}

/** "[mm:ss] Speaker: text", the transcript line of TXT, DOCX and PDF. */
export const transcriptLine = (line: ExportLine): string => `[${clockStamp(line.startMs)}] ${line.speaker ? `${line.speaker}: ` : ''}${line.text}`;

/** The heading lines every document format starts with, in order. */
export function headingFacts(doc: ExportDocument): { label: string; value: string }[] {
  return [
    { label: 'Date', value: doc.dateLabel },
    { label: 'Duration', value: doc.durationLabel },
    { label: 'Participants', value: doc.participants.length > 0 ? doc.participants.join(', ') : '—' },
  ];
}
