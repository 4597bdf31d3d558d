import { CalendarIcon, ClockIcon, UsersIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import type { MeetingDetail } from '#shared/contracts/meetings.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { formatDate, formatDuration } from '#web/lib/format.ts';
import type { CitedMoment } from './note-item.tsx';
import { NotesPanel, type NotesActions } from './notes-panel.tsx';
import { SharedByBadge } from './shared-by.tsx';
import { SpeakersCard, type SpeakerEditing } from './speakers-card.tsx';
import { TopicTimeline } from './topic-timeline.tsx';
import { TranscriptView, type CitedLines } from './transcript-view.tsx';

export type MeetingEditing = SpeakerEditing & {
  editLine: (segmentId: string, text: string) => Promise<unknown>;
  /** Gives lines (one, or a run) to another speaker, or ('new') to a new one. */
  moveLines: (segmentIds: string[], speakerId: string) => Promise<unknown>;
  /** Cuts a line in two at a character of its text. */
  splitLine: (segmentId: string, at: number) => Promise<unknown>;
  /** Puts back what was heard in place of a custom vocabulary correction. */
  undoCorrection: (correctionId: string) => Promise<unknown>;
};

/**
 * The span the topic timeline covers: the recording's length where there is one (the waveform's
 * scale); otherwise as far as the transcript goes (a sample's stated length may be longer).
 */
function timelineMs(meeting: MeetingDetail): number {
  const spoken = Math.max(0, ...meeting.segments.map((s) => s.endMs), ...meeting.insights.map((i) => i.endMs ?? i.startMs));
  return meeting.hasAudio ? Math.max(meeting.durationSeconds * 1000, spoken) : spoken || meeting.durationSeconds * 1000;
}

/** The transcript line spoken at `ms` (or the first one after it), as cited lines; none when there is no such line. */
function linesAt(meeting: MeetingDetail, ms: number | undefined): CitedLines | undefined {
  if (ms === undefined) return undefined;
  const line = meeting.segments.find((s) => s.endMs > ms) ?? meeting.segments.at(-1);
  return line && { segmentIds: [line.id], key: 0 };
}

/** A meeting read-only or editable: header, player and topic timeline, notes, speakers, transcript. */
export function MeetingView({
  meeting,
  title,
  player,
  currentMs,
  onSeek,
  editing,
  notesActions,
  statusNotice,
  momentMs,
  speakersExtra,
}: {
  meeting: MeetingDetail;
  /** A moment the page was opened at (a link from the tracker or the register, `?t=`): its line lights up. */
  momentMs?: number | undefined;
  /** Replaces the built-in processing/failure notice (the owner's page shows live progress and Retry). */
  statusNotice?: ReactNode;
  title?: ReactNode;
  player?: ReactNode;
  currentMs: number | null;
  onSeek?: ((ms: number) => void) | undefined;
  editing?: MeetingEditing;
  notesActions?: NotesActions;
  /** Below the speakers: the owner's voices card (suggestions, naming a speaker after a person). */
  speakersExtra?: ReactNode;
}) {
  // Opened at a moment: the line said then is lit from the first render, as a note's citation is.
  const [cited, setCited] = useState<CitedLines | undefined>(() => linesAt(meeting, momentMs));
  // A note jumps to its moment: the recording seeks there (when there is one) and its lines light up.
  const jump = (item: CitedMoment) => {
    setCited((previous) => ({ segmentIds: item.segmentIds, key: (previous?.key ?? 0) + 1 }));
    onSeek?.(item.startMs);
  };
  const topics = meeting.insights.filter((item) => item.kind === 'topic' && item.status !== 'dismissed');
  return (
    <div className="grid gap-6">
      <div>
        {title ?? <h1 className="text-2xl font-bold tracking-tight md:text-3xl">{meeting.title}</h1>}
        <p className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted-foreground">
          <span className="flex items-center gap-1">
            <CalendarIcon className="size-4" aria-hidden="true" />
            {formatDate(meeting.startedAt)}
          </span>
          <span className="flex items-center gap-1">
            <ClockIcon className="size-4" aria-hidden="true" />
            {formatDuration(meeting.durationSeconds)}
          </span>
          {meeting.participants.length > 0 && (
            <span className="flex items-center gap-1">
              <UsersIcon className="size-4" aria-hidden="true" />
              {meeting.participants.join(', ')}
            </span>
          )}
          <SharedByBadge meeting={meeting} />
          {meeting.isSample && <Badge variant="outline">Sample</Badge>}
          {meeting.source === 'import' && <Badge variant="outline">Imported transcript</Badge>}
        </p>
      </div>
      {statusNotice ?? (
        <>
          {meeting.status === 'processing' && (
            <p role="status" className="rounded-md border bg-muted/40 p-3 text-sm">
              The recording is saved. Its transcript is being made and appears here when it is ready.
            </p>
          )}
          {meeting.status === 'recording' && (
            <p role="status" className="rounded-md border bg-muted/40 p-3 text-sm">
              This meeting is still being recorded or uploaded.
            </p>
          )}
          {meeting.status === 'failed' && (
            <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm">
              The transcript could not be made: {meeting.failureReason ?? 'unknown reason'}
            </p>
          )}
        </>
      )}
      {(player || topics.length > 0) && (
        <Card>
          <CardContent className="grid gap-2">
            {player}
            <TopicTimeline topics={topics} durationMs={timelineMs(meeting)} currentMs={currentMs} onSelect={jump} />
          </CardContent>
        </Card>
      )}
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="grid content-start gap-6 lg:col-span-2">
          <Card>
            <CardHeader>
              <CardTitle>Transcript</CardTitle>
            </CardHeader>
            <CardContent className="max-h-[32rem] overflow-y-auto">
              <TranscriptView
                pending={meeting.status === 'processing' || meeting.status === 'recording'}
                segments={meeting.segments}
                speakers={meeting.speakers}
                currentMs={currentMs}
                onSeek={onSeek}
                onEdit={editing?.editLine}
                onMove={editing?.moveLines}
                onSplit={editing?.splitLine}
                onUndoCorrection={editing?.undoCorrection}
                cited={cited}
              />
            </CardContent>
          </Card>
        </div>
        <div className="grid content-start gap-6">
          <NotesPanel meeting={meeting} onJump={jump} actions={notesActions} />
          {meeting.speakers.length > 0 && <SpeakersCard speakers={meeting.speakers} editing={editing} />}
          {speakersExtra}
        </div>
      </div>
    </div>
  );
}
