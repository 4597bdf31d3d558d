import type { MeetingDetail } from '#shared/contracts/meetings.ts';
import type { Insight, InsightKind, NotesState } from '#shared/contracts/notes.ts';

/**
 * The one shape every export format renders: a meeting's heading facts, its notes and its
 * transcript lines with speakers resolved to their display names. Built once, so TXT, Markdown,
 * DOCX, PDF, SRT and VTT can never disagree about who said what or what the notes are.
 */
export type ExportLine = { startMs: number; endMs: number; speaker: string | null; text: string };

/** One item of the notes as every format prints it: where it was said, its words, and its facts. */
export type ExportNoteItem = {
  /** "00:35", "1:02:05", or a topic's span "00:00–00:22". */
  stamp: string;
  text: string;
  /** Action items: "Owner: …", "Due: …", "Open" | "Done"; empty for the other kinds. */
  facts: string[];
  /** Action items: ticked done; null for the other kinds. */
  done: boolean | null;
};

export type ExportNoteSection = { kind: InsightKind; title: string; items: ExportNoteItem[] };

export type ExportNotes = {
  /**
   * One line saying the notes are not ready, or not current ("Notes: not ready (failed: …)"), so a
   * document without notes never looks as if the meeting simply had none. Null when they are ready.
   */
  statusLine: string | null;
  /** Key points, action items, decisions, topics: in that order, only kinds with items, dismissed items left out. */
  sections: ExportNoteSection[];
};

export type ExportDocument = {
  title: string;
  /** A human date in the reader's time zone (Settings › Profile), named: "November 22, 2026 at 10:04 AM EST". */
  dateLabel: string;
  durationLabel: string;
  participants: string[];
  summary: string | null;
  notes: ExportNotes;
  lines: ExportLine[];
};

const dateFormat = (timeZone: string) =>
  new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short', timeZone });
// A due date is a calendar day, not an instant: read in UTC so no time zone moves it.
const dueFormat = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

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

const SECTIONS: { kind: InsightKind; title: string }[] = [
  { kind: 'key_point', title: 'Key points' },
  { kind: 'action_item', title: 'Action items' },
  { kind: 'decision', title: 'Decisions' },
  { kind: 'topic', title: 'Topics' },
];

/** "Due: Wed, Nov 19, 2026 ("by Wednesday")": the resolved day, and the words it was read from. */
function dueFact(item: Pick<Insight, 'due' | 'dueText'>): string {
  const words = item.dueText ? oneLine(item.dueText) : '';
  if (!item.due) return words ? `Due: "${words}"` : 'Due: none';
  const day = dueFormat.format(new Date(`${item.due}T00:00:00Z`));
  return words ? `Due: ${day} ("${words}")` : `Due: ${day}`;
}

function noteItem(item: Insight): ExportNoteItem {
  const text = oneLine(item.text);
  if (item.kind === 'topic') {
    const end = Math.max(item.endMs ?? item.startMs, item.startMs);
    return { stamp: `${clockStamp(item.startMs)}–${clockStamp(end)}`, text, facts: [], done: null };
  }
  if (item.kind !== 'action_item') return { stamp: clockStamp(item.startMs), text, facts: [], done: null };
  const done = item.status === 'done';
  return { stamp: clockStamp(item.startMs), text, facts: [`Owner: ${item.assignee?.trim() || 'Unassigned'}`, dueFact(item), done ? 'Done' : 'Open'], done };
}

/** Why there are no (current) notes, in one line; null when they are ready and current. */
function statusLineOf(meetingStatus: MeetingDetail['status'], notes: NotesState, hasItems: boolean): string | null {
  // Items kept from earlier notes are still printed; the line says they are not the current ones.
  const earlier = hasItems ? ' The notes below were written before.' : '';
  if (meetingStatus === 'failed') return 'Notes: not ready (the transcription failed).';
  if (meetingStatus !== 'ready') return 'Notes: not ready (the transcript is not ready yet).';
  switch (notes.status) {
    case 'ready':
      if (notes.outOfDate) return 'Notes: written before the transcript last changed; they may be out of date.';
      return hasItems ? null : 'Notes: no key points, action items, decisions or topics were found.';
    case 'queued':
      return `Notes: not ready (queued).${earlier}`;
    case 'running':
      return `Notes: not ready (being written${notes.progress ? `, part ${notes.progress.part} of ${notes.progress.parts}` : ''}).${earlier}`;
    case 'failed':
      return `Notes: not ready (failed: ${oneLine(notes.failureReason ?? 'no reason given').replace(/\.$/, '')}).${earlier}`;
    case 'off':
      return `Notes: off (none were written for this meeting).${earlier}`;
  }
}

export function toExportNotes(meetingStatus: MeetingDetail['status'], notes: NotesState, insights: Insight[]): ExportNotes {
  // What the owner dismissed is not part of the notes; items print in the order they were said.
  const kept = insights.filter((item) => item.status !== 'dismissed' && oneLine(item.text) !== '').sort((a, b) => a.startMs - b.startMs);
  const sections = SECTIONS.map(({ kind, title }) => ({ kind, title, items: kept.filter((item) => item.kind === kind).map(noteItem) })).filter(
    (section) => section.items.length > 0,
  );
  return { statusLine: statusLineOf(meetingStatus, notes, sections.length > 0), sections };
}

/** `timeZone`: the IANA zone the reader's dates are printed in (their profile's). */
export function toExportDocument(
  meeting: Pick<
    MeetingDetail,
    'title' | 'status' | 'startedAt' | 'durationSeconds' | 'participants' | 'summary' | 'speakers' | 'segments' | 'insights' | 'notes'
  >,
  timeZone: string,
): ExportDocument {
  const names = new Map(meeting.speakers.map((s) => [s.id, s.displayName?.trim() || s.label]));
  return {
    title: meeting.title,
    dateLabel: dateFormat(timeZone).format(new Date(meeting.startedAt)),
    durationLabel: formatDuration(meeting.durationSeconds),
    participants: meeting.participants,
    summary: meeting.summary?.trim() || null,
    notes: toExportNotes(meeting.status, meeting.notes, meeting.insights),
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

/** "[mm:ss] text — Owner: … · Due: … · Open", a notes item as TXT, DOCX and PDF print it. */
export const noteItemLine = (item: ExportNoteItem): string => `[${item.stamp}] ${item.text}${noteItemFacts(item)}`;

/** The " — Owner: … · Due: … · Open" tail of an action item; empty for the other kinds. */
export const noteItemFacts = (item: ExportNoteItem): string => (item.facts.length > 0 ? ` — ${item.facts.join(' · ')}` : '');

/** The heading lines every document format starts with, in order. */
export function headingFacts(doc: ExportDocument): { label: string; value: string }[] {
  return [
    { label: 'Date', value: doc.dateLabel },
    { label: 'Duration', value: doc.durationLabel },
    { label: 'Participants', value: doc.participants.length > 0 ? doc.participants.join(', ') : '—' },
  ];
}
