import { CheckIcon, ChevronDownIcon, ChevronUpIcon, PencilIcon, XIcon } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Speaker, TranscriptCorrection, TranscriptSegment } from '#shared/contracts/meetings.ts';
import { Button } from '#web/components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '#web/components/ui/dropdown-menu.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { formatClock } from '#web/lib/format.ts';
import { cn } from '#web/lib/utils.ts';
import { findTranscriptMatches, type TranscriptMatch } from './transcript-search.ts';

export const speakerName = (speakers: Speaker[], id: string | null): string => {
  const speaker = speakers.find((s) => s.id === id);
  return speaker ? (speaker.displayName ?? speaker.label) : 'Unknown speaker';
};

/** Lines a note cites, to highlight and bring into view; `key` changes with every jump, even to the same lines. */
export type CitedLines = { segmentIds: readonly string[]; key: number };

/**
 * The transcript: the line being played is highlighted and kept in view; the lines a note cites are
 * marked and scrolled to; clicking a line's time seeks the audio there; a search box marks what it
 * finds and steps through it ("3 of 12"); with editing allowed, a line's text can be corrected in
 * place (Enter saves, Esc cancels), and lines selected with their checkboxes (Shift+click or
 * Shift+arrow keys for a range) move to another speaker together.
 */
export function TranscriptView({
  segments,
  speakers,
  currentMs,
  onSeek,
  onEdit,
  onMove,
  onSplit,
  onUndoCorrection,
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
  /** Gives lines to another speaker: a line's speaker becomes a menu. */
  onMove?: ((segmentIds: string[], speakerId: string) => Promise<unknown>) | undefined;
  /** Cuts a line in two: the line's menu offers it. */
  onSplit?: ((segmentId: string, at: number) => Promise<unknown>) | undefined;
  /** Undoes a custom vocabulary correction: each corrected line says what was heard, with Undo. */
  onUndoCorrection?: ((correctionId: string) => Promise<unknown>) | undefined;
  cited?: CitedLines | undefined;
}) {
  const activeRef = useRef<HTMLLIElement>(null);
  const citedRef = useRef<HTMLLIElement>(null);
  const currentMatchRef = useRef<HTMLElement>(null);
  const [query, setQuery] = useState('');
  const selection = useLineSelection(segments);
  const [current, setCurrent] = useState(0);
  const matches = useMemo(() => findTranscriptMatches(segments, query), [segments, query]);
  // An edit can leave fewer matches than the one shown: the last one then.
  const currentIndex = matches.length === 0 ? -1 : Math.min(current, matches.length - 1);
  const matchesOf = useMemo(() => {
    const byLine = new Map<string, (TranscriptMatch & { index: number })[]>();
    matches.forEach((match, index) => byLine.set(match.segmentId, [...(byLine.get(match.segmentId) ?? []), { ...match, index }]));
    return byLine;
  }, [matches]);
  // The lines from each one on that its speaker says without another speaking between (moved together).
  const runs = useMemo(() => {
    const byLine = new Map<string, string[]>();
    let run: string[] = [];
    for (let i = segments.length - 1; i >= 0; i -= 1) {
      const line = segments[i]!;
      run = i + 1 < segments.length && segments[i + 1]!.speakerId === line.speakerId ? [line.id, ...run] : [line.id];
      byLine.set(line.id, run);
    }
    return byLine;
  }, [segments]);
  const step = (by: number) => {
    if (matches.length > 0) setCurrent((currentIndex + by + matches.length) % matches.length);
  };
  const activeId = currentMs === null ? null : (segments.findLast((s) => s.startMs <= currentMs)?.id ?? null);
  const citedIds = new Set(cited?.segmentIds);
  const firstCitedId = segments.find((s) => citedIds.has(s.id))?.id;

  useEffect(() => {
    activeRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [activeId]);
  useEffect(() => {
    citedRef.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [cited?.key]);
  useEffect(() => {
    currentMatchRef.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [currentIndex, query]);

  if (segments.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        {pending ? 'The transcript appears here as soon as it is ready.' : 'No speech was found in this recording.'}
      </p>
    );
  }
  return (
    <div className="grid gap-3">
      <div role="search" aria-label="In this transcript" className="sticky top-0 z-10 flex items-center gap-1 bg-card pb-1">
        <Input
          type="search"
          className="h-8"
          placeholder="Search the transcript"
          aria-label="Search the transcript"
          value={query}
          maxLength={200}
          onChange={(event) => {
            setQuery(event.target.value);
            setCurrent(0);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              step(event.shiftKey ? -1 : 1);
            }
          }}
        />
        <span className="min-w-20 text-center text-xs whitespace-nowrap text-muted-foreground tabular-nums" role="status">
          {query.trim() === '' ? '' : matches.length === 0 ? 'No matches' : `${currentIndex + 1} of ${matches.length}`}
        </span>
        <Button size="icon" variant="ghost" className="size-8" aria-label="Previous match" disabled={matches.length === 0} onClick={() => step(-1)}>
          <ChevronUpIcon />
        </Button>
        <Button size="icon" variant="ghost" className="size-8" aria-label="Next match" disabled={matches.length === 0} onClick={() => step(1)}>
          <ChevronDownIcon />
        </Button>
      </div>
      {onMove && selection.ids.length > 0 && (
        <SelectionBar
          count={selection.ids.length}
          speakers={speakers.map((s) => ({ id: s.id, name: speakerName(speakers, s.id) }))}
          onMove={(speakerId) => onMove(selection.ids, speakerId).finally(selection.clear)}
          onClear={selection.clear}
        />
      )}
      <ol className="grid gap-1" aria-label="Transcript">
        {segments.map((segment) => (
          <TranscriptLine
            key={segment.id}
            segment={segment}
            speaker={speakerName(speakers, segment.speakerId)}
            active={segment.id === activeId}
            isCited={citedIds.has(segment.id)}
            lineRef={segment.id === firstCitedId ? citedRef : segment.id === activeId ? activeRef : undefined}
            matches={matchesOf.get(segment.id)}
            currentMatch={currentIndex}
            currentMatchRef={currentMatchRef}
            onSeek={onSeek}
            onEdit={onEdit}
            onSplit={onSplit}
            onUndoCorrection={onUndoCorrection}
            move={
              onMove
                ? {
                    run: runs.get(segment.id) ?? [segment.id],
                    to: speakers.filter((s) => s.id !== segment.speakerId).map((s) => ({ id: s.id, name: speakerName(speakers, s.id) })),
                    onMove,
                    selected: selection.has(segment.id),
                    onSelect: (event: React.MouseEvent | React.KeyboardEvent) => selection.onClick(segment.id, event),
                    onSelectKey: (event: React.KeyboardEvent<HTMLInputElement>) => selection.onKeyDown(segment.id, event),
                  }
                : undefined
            }
          />
        ))}
      </ol>
    </div>
  );
}

/** A line's text with the search's matches marked, the current one apart. */
function MarkedText({
  text,
  matches,
  currentMatch,
  currentMatchRef,
}: {
  text: string;
  matches: (TranscriptMatch & { index: number })[] | undefined;
  currentMatch: number;
  currentMatchRef: React.Ref<HTMLElement>;
}) {
  if (!matches) return <span>{text}</span>;
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const match of matches) {
    parts.push(text.slice(at, match.start));
    const isCurrent = match.index === currentMatch;
    parts.push(
      <mark
        key={match.index}
        ref={isCurrent ? currentMatchRef : undefined}
        data-current={isCurrent}
        className={cn('rounded-sm bg-yellow-200 text-inherit dark:bg-yellow-700/60', isCurrent && 'bg-orange-300 ring-2 ring-orange-500 dark:bg-orange-600')}
      >
        {text.slice(match.start, match.end)}
      </mark>,
    );
    at = match.end;
  }
  parts.push(text.slice(at));
  return <span>{parts}</span>;
}

function TranscriptLine({
  segment,
  speaker,
  active,
  isCited,
  lineRef,
  matches,
  currentMatch,
  currentMatchRef,
  onSeek,
  onEdit,
  onSplit,
  onUndoCorrection,
  move,
}: {
  move:
    | {
        run: string[];
        to: { id: string; name: string }[];
        onMove: (segmentIds: string[], speakerId: string) => Promise<unknown>;
        /** The line is among those selected to move together (its checkbox; Shift+click and Shift+arrows select a range). */
        selected: boolean;
        onSelect: (event: React.MouseEvent) => void;
        onSelectKey: (event: React.KeyboardEvent<HTMLInputElement>) => void;
      }
    | undefined;
  onSplit: ((segmentId: string, at: number) => Promise<unknown>) | undefined;
  segment: TranscriptSegment;
  speaker: string;
  active: boolean;
  isCited: boolean;
  lineRef: React.Ref<HTMLLIElement> | undefined;
  matches: (TranscriptMatch & { index: number })[] | undefined;
  currentMatch: number;
  currentMatchRef: React.Ref<HTMLElement>;
  onSeek: ((ms: number) => void) | undefined;
  onEdit: ((segmentId: string, text: string) => Promise<unknown>) | undefined;
  onUndoCorrection: ((correctionId: string) => Promise<unknown>) | undefined;
}) {
  const [editing, setEditing] = useState(false);
  const [splitting, setSplitting] = useState(false);
  // Chosen from the menu: the menu then leaves the focus to the split box instead of its button.
  const splitChosen = useRef(false);
  const splitArea = useRef<HTMLTextAreaElement>(null);
  const [draft, setDraft] = useState(segment.text);
  const [busy, setBusy] = useState(false);
  const pencil = useRef<HTMLButtonElement>(null);
  const time = formatClock(segment.startMs / 1000);
  const close = () => {
    setEditing(false);
    // Back where the person was, for the next line's edit by keyboard.
    requestAnimationFrame(() => pencil.current?.focus());
  };
  const cancel = () => {
    setDraft(segment.text);
    close();
  };
  return (
    <li
      ref={lineRef}
      data-active={active}
      data-cited={isCited}
      className={cn(
        'group rounded-md px-2 py-1.5 text-sm transition-colors',
        active && 'bg-primary/10',
        isCited && 'bg-amber-50 ring-1 ring-amber-300 dark:bg-amber-950/30',
        move?.selected && 'bg-primary/10 ring-1 ring-primary/40',
      )}
    >
      <div className="flex items-start gap-2">
        {move && (
          <input
            type="checkbox"
            data-line={segment.id}
            checked={move.selected}
            // The click carries Shift (a range); the change itself is the selection's to make.
            onChange={() => undefined}
            onClick={move.onSelect}
            onKeyDown={move.onSelectKey}
            aria-label={`Select the line at ${time}`}
            aria-description="Shift+click or Shift+arrow keys select a range of lines"
            className={cn(
              'mt-1 size-3.5 shrink-0 accent-primary',
              !move.selected && 'pointer-fine:opacity-0 pointer-fine:group-hover:opacity-100 pointer-fine:focus-visible:opacity-100',
            )}
          />
        )}
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
          {move ? (
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <button type="button" className="font-medium hover:underline" aria-label={`Change the speaker of the line at ${time} (${speaker})`}>
                  {speaker}:
                </button>
              </DropdownMenuTrigger>
              <DropdownMenuContent
                align="start"
                onCloseAutoFocus={(event) => {
                  if (!splitChosen.current) return;
                  splitChosen.current = false;
                  event.preventDefault();
                  // The menu held the focus while it closed: now the split box takes it.
                  requestAnimationFrame(() => splitArea.current?.focus());
                }}
              >
                <DropdownMenuLabel>This line to</DropdownMenuLabel>
                {move.to.map((other) => (
                  <DropdownMenuItem key={other.id} onSelect={() => void move.onMove([segment.id], other.id)}>
                    {other.name}
                  </DropdownMenuItem>
                ))}
                <DropdownMenuItem onSelect={() => void move.onMove([segment.id], 'new')}>A new speaker</DropdownMenuItem>
                {onSplit && segment.text.trim().includes(' ') && (
                  <>
                    <DropdownMenuSeparator />
                    <DropdownMenuItem
                      onSelect={() => {
                        splitChosen.current = true;
                        setSplitting(true);
                      }}
                    >
                      Split this line…
                    </DropdownMenuItem>
                  </>
                )}
                {move.run.length > 1 && (
                  <>
                    <DropdownMenuSeparator />
                    <DropdownMenuLabel>
                      This line and the next {move.run.length - 1} of {speaker}’s to
                    </DropdownMenuLabel>
                    {move.to.map((other) => (
                      <DropdownMenuItem key={other.id} onSelect={() => void move.onMove(move.run, other.id)}>
                        {other.name}
                      </DropdownMenuItem>
                    ))}
                    <DropdownMenuItem onSelect={() => void move.onMove(move.run, 'new')}>A new speaker</DropdownMenuItem>
                  </>
                )}
              </DropdownMenuContent>
            </DropdownMenu>
          ) : (
            <span className="font-medium">{speaker}:</span>
          )}{' '}
          {splitting && onSplit ? (
            <SplitLine
              areaRef={splitArea}
              text={segment.text}
              time={time}
              onSplit={(at) => onSplit(segment.id, at).then(() => setSplitting(false))}
              onCancel={() => setSplitting(false)}
            />
          ) : editing ? (
            <form
              className="mt-1 grid gap-2"
              onSubmit={(event) => {
                event.preventDefault();
                if (!onEdit || draft.trim() === '') return;
                setBusy(true);
                void onEdit(segment.id, draft.trim())
                  .then(close)
                  .finally(() => setBusy(false));
              }}
            >
              <textarea
                className="min-h-16 w-full rounded-md border bg-background p-2 text-sm"
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                aria-label={`Text of the line at ${time}`}
                aria-description="Enter saves, Shift+Enter starts a new line, Escape cancels"
                maxLength={10_000}
                autoFocus
                onKeyDown={(event) => {
                  if (event.key === 'Escape') {
                    event.preventDefault();
                    cancel();
                  } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                    event.preventDefault();
                    event.currentTarget.form?.requestSubmit();
                  }
                }}
              />
              <span className="flex gap-2">
                <Button size="sm" type="submit" disabled={busy || draft.trim() === ''}>
                  <CheckIcon /> Save
                </Button>
                <Button size="sm" variant="outline" type="button" onClick={cancel}>
                  <XIcon /> Cancel
                </Button>
              </span>
            </form>
          ) : (
            <>
              <MarkedText text={segment.text} matches={matches} currentMatch={currentMatch} currentMatchRef={currentMatchRef} />
              {segment.corrections && segment.corrections.length > 0 && <Corrections corrections={segment.corrections} onUndo={onUndoCorrection} />}
            </>
          )}
        </div>
        {onEdit && !editing && (
          <Button
            ref={pencil}
            size="icon"
            variant="ghost"
            // Shown until hovered only where there is a mouse to hover with: on a touch screen it is always there.
            className="size-7 pointer-fine:opacity-0 pointer-fine:group-hover:opacity-100 pointer-fine:group-focus-within:opacity-100 pointer-fine:focus-visible:opacity-100"
            aria-label={`Edit the line at ${time}`}
            onClick={() => {
              setDraft(segment.text);
              setEditing(true);
            }}
          >
            <PencilIcon />
          </Button>
        )}
      </div>
    </li>
  );
}

/** Where a caret at `caret` cuts `text`: the nearest space (a line is split between words); undefined when none. */
/** A line's custom vocabulary corrections: what was heard and what it became, each with Undo for the owner. */
function Corrections({ corrections, onUndo }: { corrections: TranscriptCorrection[]; onUndo: ((correctionId: string) => Promise<unknown>) | undefined }) {
  const [busy, setBusy] = useState(false);
  return (
    <ul className="mt-1 grid gap-1 text-xs text-muted-foreground" aria-label="Vocabulary corrections">
      {corrections.map((c) => (
        <li key={c.id} className="flex flex-wrap items-center gap-2">
          <span>
            Heard “{c.original}”, corrected to “{c.corrected}” from your vocabulary
          </span>
          {onUndo && (
            <Button
              size="sm"
              variant="link"
              className="h-auto p-0 text-xs"
              disabled={busy}
              aria-label={`Undo the correction of “${c.original}” to “${c.corrected}”`}
              onClick={() => {
                setBusy(true);
                void onUndo(c.id).finally(() => setBusy(false));
              }}
            >
              Undo
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}

export function splitPoint(text: string, caret: number): number | undefined {
  let best: number | undefined;
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== ' ' || text.slice(0, i).trim() === '' || text.slice(i).trim() === '') continue;
    if (best === undefined || Math.abs(i - caret) < Math.abs(best - caret)) best = i;
  }
  return best;
}

/**
 * A line being split: its text, read-only, where the caret (arrow keys or a click) marks the cut;
 * Enter or "Split here" cuts at the space nearest the caret, Escape cancels.
 */
function SplitLine({
  areaRef: area,
  text,
  time,
  onSplit,
  onCancel,
}: {
  areaRef: React.RefObject<HTMLTextAreaElement | null>;
  text: string;
  time: string;
  onSplit: (at: number) => Promise<unknown>;
  onCancel: () => void;
}) {
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const middle = splitPoint(text, Math.floor(text.length / 2)) ?? 0;
    area.current?.focus();
    area.current?.setSelectionRange(middle, middle);
  }, [text, area]);
  const split = () => {
    const at = splitPoint(text, area.current?.selectionStart ?? 0);
    if (at === undefined) return;
    setBusy(true);
    void onSplit(at).finally(() => setBusy(false));
  };
  return (
    <div className="mt-1 grid gap-2">
      <textarea
        ref={area}
        className="min-h-16 w-full rounded-md border bg-background p-2 text-sm"
        readOnly
        value={text}
        aria-label={`Split the line at ${time}`}
        aria-description="Move the caret to where the line splits; Enter splits, Escape cancels"
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            split();
          } else if (event.key === 'Escape') onCancel();
        }}
      />
      <div className="flex gap-2">
        <Button type="button" size="sm" disabled={busy} onClick={split}>
          Split here
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </div>
  );
}

/**
 * Lines selected to move together: a click on a line's checkbox toggles it and sets the anchor;
 * Shift+click selects from the anchor to that line; Shift+ArrowDown/Up extends from the anchor to
 * the next or previous line and moves the focus there; Escape clears. Ids in transcript order.
 */
function useLineSelection(segments: TranscriptSegment[]) {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [anchor, setAnchor] = useState<string | null>(null);
  const order = useMemo(() => segments.map((s) => s.id), [segments]);
  // Lines split, joined or gone since they were chosen drop out of the selection.
  const ids = order.filter((id) => chosen.has(id));
  const range = (from: string, to: string) => {
    const [a, b] = [order.indexOf(from), order.indexOf(to)].sort((x, y) => x - y) as [number, number];
    return new Set(a < 0 ? [to] : order.slice(a, b + 1));
  };
  const clear = () => {
    setChosen(new Set());
    setAnchor(null);
  };
  return {
    ids,
    has: (id: string) => chosen.has(id),
    clear,
    onClick: (id: string, event: React.MouseEvent | React.KeyboardEvent) => {
      if (event.shiftKey && anchor !== null) {
        setChosen(range(anchor, id));
        return;
      }
      const next = new Set(chosen);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      setChosen(next);
      setAnchor(id);
    },
    onKeyDown: (id: string, event: React.KeyboardEvent<HTMLInputElement>) => {
      if (event.key === 'Escape' && chosen.size > 0) {
        event.preventDefault();
        clear();
        return;
      }
      if (!event.shiftKey || (event.key !== 'ArrowDown' && event.key !== 'ArrowUp')) return;
      event.preventDefault();
      const to = order[order.indexOf(id) + (event.key === 'ArrowDown' ? 1 : -1)];
      if (to === undefined) return;
      const from = anchor ?? id;
      setAnchor(from);
      setChosen(range(from, to));
      // Line ids are UUIDs: safe in a selector as they are.
      event.currentTarget.closest('ol')?.querySelector<HTMLInputElement>(`input[data-line="${to}"]`)?.focus();
    },
  };
}

/** What the selected lines can do: go to one of the speakers or to a new one, or be let go. */
function SelectionBar({
  count,
  speakers,
  onMove,
  onClear,
}: {
  count: number;
  speakers: { id: string; name: string }[];
  onMove: (speakerId: string) => Promise<unknown>;
  onClear: () => void;
}) {
  return (
    <div role="toolbar" aria-label="Selected lines" className="flex flex-wrap items-center gap-2 rounded-md border border-dashed px-2 py-1 text-sm">
      <span className="flex-1" role="status">
        {count === 1 ? '1 line selected' : `${count} lines selected`}
      </span>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button type="button" size="sm" variant="outline">
            Move to… <ChevronDownIcon />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuLabel>{count === 1 ? 'The selected line to' : `The ${count} selected lines to`}</DropdownMenuLabel>
          {speakers.map((speaker) => (
            <DropdownMenuItem key={speaker.id} onSelect={() => void onMove(speaker.id)}>
              {speaker.name}
            </DropdownMenuItem>
          ))}
          <DropdownMenuItem onSelect={() => void onMove('new')}>A new speaker</DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <Button type="button" size="sm" variant="ghost" onClick={onClear}>
        Clear selection
      </Button>
    </div>
  );
}
