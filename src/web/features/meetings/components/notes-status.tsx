import { RotateCwIcon } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '#web/app/paths.ts';
import type { NotesState } from '#shared/contracts/notes.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Progress } from '#web/components/ui/progress.tsx';
import { notesRunningText } from '../progress-text.ts';

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/** Who wrote the notes, in small print: the engine of the notes shown (or being written). */
export function notesCredit(engine: NotesState['engine']): string | null {
  if (engine === 'local') return 'Notes by the local engine';
  if (engine === 'llm') return 'Notes by an LLM';
  return null; // the sample meetings' notes come as written, from no engine
}

/**
 * Under notes the local engine wrote: that a connected model writes fuller ones, and where to read
 * how (Settings › Recording › Notes Model, which also says whether one is connected).
 */
export function LocalNotesHint() {
  return (
    <p className="text-xs text-muted-foreground">
      Written without an AI model. A connected model (Ollama or any OpenAI-compatible endpoint) writes fuller summaries:{' '}
      <Link to={paths.settings.notesModel} className="text-primary underline underline-offset-4">
        see how in Settings
      </Link>
      .
    </p>
  );
}

/**
 * Where a meeting's notes are, in plain words: queued, being written part by part, failed (with why
 * and Retry), off (with a way to make them anyway), out of date (with Regenerate), and what the
 * engines left out or covered for each other. Without `onRegenerate` (a read-only view) the words
 * stay and the buttons go.
 */
export function NotesStatus({ notes, onRegenerate, busy }: { notes: NotesState; onRegenerate?: (() => void) | undefined; busy: boolean }) {
  const underWay = notes.status === 'queued' || notes.status === 'running';
  const action = (label: string) =>
    onRegenerate && (
      <Button size="sm" variant="outline" disabled={busy} onClick={onRegenerate}>
        <RotateCwIcon aria-hidden="true" />
        {label}
      </Button>
    );
  return (
    <div className="grid gap-2 text-sm empty:hidden">
      {notes.status === 'queued' && (
        <p aria-live="polite" className="rounded-md border bg-muted/40 p-3">
          Notes are queued
        </p>
      )}
      {notes.status === 'running' && (
        <div aria-live="polite" className="grid gap-2 rounded-md border bg-muted/40 p-3">
          <span>{notesRunningText(notes.progress)}</span>
          {notes.progress && <Progress value={Math.round((notes.progress.part / notes.progress.parts) * 100)} aria-label="Notes progress" className="h-1.5" />}
        </div>
      )}
      {notes.status === 'failed' && (
        <div role="alert" className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-destructive/40 bg-destructive/5 p-3">
          <span>{notes.failureReason ?? 'The notes could not be written.'}</span>
          {action('Retry')}
        </div>
      )}
      {notes.status === 'off' && (
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-md border bg-muted/40 p-3">
          {/* Its Summary and Action Items options, or AI Summary Generation in Settings, were off. */}
          <span>Notes are turned off for this meeting.</span>
          {action('Make notes anyway')}
        </div>
      )}
      {notes.outOfDate && !underWay && (
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 dark:bg-amber-950/30">
          <span>The transcript changed since these notes were made</span>
          {action('Regenerate')}
        </div>
      )}
      {notes.droppedUncited > 0 && (
        <p className="text-xs text-muted-foreground">
          {notes.droppedUncited} {plural(notes.droppedUncited, 'item was left out because its citations', 'items were left out because their citations')} did
          not check out
        </p>
      )}
      {notes.localFallbackParts > 0 && (
        <p className="text-xs text-muted-foreground">
          The local engine covered {notes.localFallbackParts} {plural(notes.localFallbackParts, 'part', 'parts')} of this meeting that the LLM could not.
        </p>
      )}
    </div>
  );
}
