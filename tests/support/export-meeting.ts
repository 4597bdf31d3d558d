import type { toExportDocument } from '#server/features/meetings/export-document.ts';
import type { Insight, NotesState } from '#shared/contracts/notes.ts';

/** What the export renderers read of a meeting. */
export type ExportableMeeting = Parameters<typeof toExportDocument>[0];

export const SPEAKER_A = '00000000-0000-4000-8000-00000000000a';
export const SPEAKER_B = '00000000-0000-4000-8000-00000000000b';
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const seg = (n: number, speakerId: string | null, startMs: number, endMs: number, text: string) => ({
  id: uuid(n),
  speakerId,
  startMs,
  endMs,
  text,
  confidence: null,
});

/** One notes item; the kind's own fields (owner, due date, span end) given where they matter. */
export const item = (n: number, kind: Insight['kind'], startMs: number, text: string, more: Partial<Insight> = {}): Insight => ({
  id: uuid(100 + n),
  kind,
  text,
  segmentIds: [uuid(1)],
  startMs,
  endMs: null,
  assignee: null,
  due: null,
  dueText: null,
  status: 'open',
  suggested: true,
  ...more,
});

export const READY_NOTES: NotesState = {
  status: 'ready',
  engine: 'local',
  failureReason: null,
  droppedUncited: 0,
  localFallbackParts: 0,
  progress: null,
  outOfDate: false,
  generatedAt: '2026-11-20T15:10:00.000Z',
};

/**
 * A meeting of just over an hour with notes of every kind (a dismissed item among them), markup
 * in its title and lines, a speaker without a name and a line without a speaker.
 */
export function exportableMeeting(overrides: Partial<ExportableMeeting> = {}): ExportableMeeting {
  return {
    title: 'Design <review> & sync',
    status: 'ready',
    startedAt: '2026-11-20T14:05:00.000Z',
    durationSeconds: 3725,
    participants: ['Ada Lovelace', 'Grace Hopper'],
    summary: 'We picked the blue one.',
    speakers: [
      { id: SPEAKER_A, label: 'Speaker 1', displayName: 'Ada Lovelace' },
      { id: SPEAKER_B, label: 'Speaker 2', displayName: null },
    ],
    segments: [
      seg(1, SPEAKER_A, 1000, 4500, 'Hello\nthere.'),
      seg(2, SPEAKER_B, 65_250, 70_000, 'Use <b> & stop --> now'),
      seg(3, null, 3_725_000, 3_725_000, 'Bye.'),
      seg(4, SPEAKER_A, 3_726_000, 3_727_000, '   '),
    ],
    insights: [
      item(1, 'decision', 3_725_000, 'Ship the blue one.'),
      item(2, 'action_item', 65_250, 'Order the blue paint', { assignee: 'Grace Hopper', due: '2026-11-27', dueText: 'by Friday' }),
      item(3, 'key_point', 1000, 'Blue tested best.'),
      item(4, 'action_item', 3_725_000, 'Tell the printers', { status: 'done' }),
      item(5, 'action_item', 2000, 'Paint it red', { assignee: 'Ada Lovelace', status: 'dismissed' }),
      item(6, 'topic', 0, 'Colours', { endMs: 70_000 }),
      item(7, 'topic', 60_000, 'Wrap-up', { endMs: 3_727_000 }),
    ],
    notes: READY_NOTES,
    ...overrides,
  };
}
