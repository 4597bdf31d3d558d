import { CheckIcon, PencilIcon, XIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { Speaker, TranscriptSegment } from '#shared/contracts/meetings.ts';
import { Button } from '#web/components/ui/button.tsx';
import { formatClock } from '#web/lib/format.ts';
import { cn } from '#web/lib/utils.ts';

export const speakerName = (speakers: Speaker[], id: string | null): string => {
  const speaker = speakers.find((s) => s.id === id);
  return speaker ? (speaker.displayName ?? speaker.label) : 'Unknown speaker';
};

/** Lines a note cites, to highlight and bring into view; `key` changes with every jump, even to the same lines. */
export type CitedLines = { segmentIds: readonly string[]; key: number };

/**
 * The transcript: the line being played is highlighted and kept in view; the lines a note cites are
 * marked and scrolled to; clicking a line's time seeks the audio there; with editing allowed, a
 * line's text can be corrected in place.
 */
export function TranscriptView({
  segments,
  speakers,
  currentMs,
  onSeek,
  onEdit,
  cited,
  pending = false,
}: {
  /** The transcript is still being made (an empty list is not "no speech" yet). */
  pending?: boolean;
  segments: TranscriptSegment[];
  speakers: Speaker[];
  currentMs: number | null;
  onSeek?: (ms: number) => void;
  onEdit?: (segmentId: string, text: string) => Promise<unknown>;
  cited?: CitedLines | undefined;
}) {
  const activeRef = useRef<HTMLLIElement>(null);
  const citedRef = useRef<HTMLLIElement>(null);
  const activeId = currentMs === null ? null : (segments.findLast((s) => s.startMs <= currentMs)?.id ?? null);
  const citedIds = new Set(cited?.segmentIds);
  const firstCitedId = segments.find((s) => citedIds.has(s.id))?.id;

  useEffect(() => {
    activeRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [activeId]);
  useEffect(() => {
    citedRef.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [cited?.key]);

  if (segments.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        {pending ? 'The transcript appears here as soon as it is ready.' : 'No speech was found in this recording.'}
      </p>
    );
  }
  return (
    <ol className="grid gap-1" aria-label="Transcript">
      {segments.map((segment) => (
        <TranscriptLine
          key={segment.id}
          segment={segment}
          speaker={speakerName(speakers, segment.speakerId)}
          active={segment.id === activeId}
          isCited={citedIds.has(segment.id)}
          lineRef={segment.id === firstCitedId ? citedRef : segment.id === activeId ? activeRef : undefined}
          onSeek={onSeek}
          onEdit={onEdit}
        />
      ))}
    </ol>
  );
}

function TranscriptLine({
  segment,
  speaker,
  active,
  isCited,
  lineRef,
  onSeek,
  onEdit,
}: {
  segment: TranscriptSegment;
  speaker: string;
  active: boolean;
  isCited: boolean;
  lineRef: React.Ref<HTMLLIElement> | undefined;
  onSeek: ((ms: number) => void) | undefined;
  onEdit: ((segmentId: string, text: string) => Promise<unknown>) | undefined;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(segment.text);
  const [busy, setBusy] = useState(false);
  const time = formatClock(segment.startMs / 1000);
  return (
    <li
      ref={lineRef}
      data-active={active}
      data-cited={isCited}
      className={cn(
        'group rounded-md px-2 py-1.5 text-sm transition-colors',
        active && 'bg-primary/10',
        isCited && 'bg-amber-50 ring-1 ring-amber-300 dark:bg-amber-950/30',
      )}
    >
      <div className="flex items-start gap-2">
        {onSeek ? (
          <button
            type="button"
            className="mt-0.5 font-mono text-xs text-primary hover:underline"
            onClick={() => onSeek(segment.startMs)}
            aria-label={`Play from ${time}`}
          >
            {time}
          </button>
        ) : (
          <span className="mt-0.5 font-mono text-xs text-muted-foreground">{time}</span>
        )}
        <div className="flex-1">
          <span className="font-medium">{speaker}: </span>
          {editing ? (
            <form
              className="mt-1 grid gap-2"
              onSubmit={(event) => {
                event.preventDefault();
                if (!onEdit || draft.trim() === '') return;
                setBusy(true);
                void onEdit(segment.id, draft.trim())
                  .then(() => setEditing(false))
                  .finally(() => setBusy(false));
              }}
            >
              <textarea
                className="min-h-16 w-full rounded-md border bg-background p-2 text-sm"
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                aria-label={`Text of the line at ${time}`}
                maxLength={10_000}
                autoFocus
              />
              <span className="flex gap-2">
                <Button size="sm" type="submit" disabled={busy || draft.trim() === ''}>
                  <CheckIcon /> Save
                </Button>
                <Button
                  size="sm"
                  variant="outline"
                  type="button"
                  onClick={() => {
                    setDraft(segment.text);
                    setEditing(false);
                  }}
                >
                  <XIcon /> Cancel
                </Button>
              </span>
            </form>
          ) : (
            <span>{segment.text}</span>
          )}
        </div>
        {onEdit && !editing && (
          <Button
            size="icon"
            variant="ghost"
            className="size-7 opacity-0 group-hover:opacity-100 focus:opacity-100"
            aria-label={`Edit the line at ${time}`}
            onClick={() => setEditing(true)}
          >
            <PencilIcon />
          </Button>
        )}
      </div>
    </li>
  );
}
