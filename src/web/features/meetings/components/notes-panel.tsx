import { RotateCwIcon } from 'lucide-react';
import { useId, useState } from 'react';
import type { MeetingDetail } from '#shared/contracts/meetings.ts';
import type { InsightKind, SummarySentence, UpdateNoteItemBody } from '#shared/contracts/notes.ts';
import { Button } from '#web/components/ui/button.tsx';
import { CitedSentences } from '#web/components/cited-sentences.tsx';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { NoteItem, type CitedMoment } from './note-item.tsx';
import { LocalNotesHint, NotesStatus, notesCredit } from './notes-status.tsx';

const SECTIONS: { kind: InsightKind; title: string }[] = [
  { kind: 'key_point', title: 'Key points' },
  { kind: 'action_item', title: 'Action items' },
  { kind: 'decision', title: 'Decisions' },
  { kind: 'topic', title: 'Topics' },
];

/** What the owner may do with the notes; a read-only view (the product tour) has none. */
export type NotesActions = {
  regenerate: () => void;
  isRegenerating: boolean;
  /** Resolves true when the server took the change (a failure has been told already). */
  updateItem: (itemId: string, body: UpdateNoteItemBody) => Promise<boolean>;
};

/** The time after a summary sentence, which jumps there as a notes item does. */
function jumpButton(onJump: (moment: CitedMoment) => void) {
  return (sentence: SummarySentence, time: string) => (
    <button
      type="button"
      className="rounded-sm font-mono text-xs text-primary hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
      title="Go to where this was said"
      aria-label={`Go to where this was said: ${time}`}
      onClick={() => onJump(sentence)}
    >
      {time}
    </button>
  );
}

/**
 * The meeting's notes: their state, the summary, then key points, action items, decisions and
 * topics, each item (and each sentence of a summary that cites them) jumping to where it was said.
 * Dismissed items stay hidden until asked for.
 */
export function NotesPanel({
  meeting,
  onJump,
  actions,
}: {
  meeting: Pick<MeetingDetail, 'status' | 'summary' | 'summarySentences' | 'insights' | 'notes'>;
  onJump: (moment: CitedMoment) => void;
  actions?: NotesActions | undefined;
}) {
  const titleId = useId();
  const [showDismissed, setShowDismissed] = useState(false);
  const { notes } = meeting;
  const transcribed = meeting.status === 'ready';
  const underWay = notes.status === 'queued' || notes.status === 'running';
  const dismissed = meeting.insights.filter((item) => item.status === 'dismissed').length;
  const shown = meeting.insights.filter((item) => item.status !== 'dismissed' || (showDismissed && actions));
  const credit = notesCredit(notes.engine);
  const regenerate = transcribed ? actions?.regenerate : undefined;
  const busy = underWay || (actions?.isRegenerating ?? false);

  return (
    <Card aria-labelledby={titleId} role="region" className="gap-4">
      <CardHeader>
        <CardTitle>
          <h2 id={titleId}>Notes</h2>
        </CardTitle>
        {credit && <CardDescription className="text-xs">{credit}</CardDescription>}
        {regenerate && (
          <CardAction>
            <Button size="sm" variant="outline" disabled={busy} onClick={regenerate}>
              <RotateCwIcon aria-hidden="true" /> Regenerate notes
            </Button>
          </CardAction>
        )}
      </CardHeader>
      <CardContent className="grid gap-5">
        {transcribed ? (
          <NotesStatus notes={notes} onRegenerate={regenerate} busy={busy} />
        ) : (
          <p className="text-sm text-muted-foreground">Notes are written once the transcript is ready.</p>
        )}
        {meeting.summary && (
          <section className="grid gap-1.5">
            <h3 className="text-sm font-semibold">Summary</h3>
            <p className="text-sm leading-6">
              {meeting.summarySentences ? <CitedSentences sentences={meeting.summarySentences} time={jumpButton(onJump)} /> : meeting.summary}
            </p>
            {/* To whoever can have the notes written again: a read-only view (the demo's) has no Settings to go to. */}
            {actions && notes.engine === 'local' && notes.status === 'ready' && <LocalNotesHint />}
          </section>
        )}
        {SECTIONS.map(({ kind, title }) => {
          const items = shown.filter((item) => item.kind === kind);
          if (items.length === 0) return null;
          return (
            <section key={kind} className="grid gap-1">
              <h3 className="text-sm font-semibold">{title}</h3>
              <ul aria-label={title} className="-mx-2 grid gap-0.5">
                {items.map((item) => (
                  <NoteItem key={item.id} item={item} onJump={onJump} onUpdate={actions && ((body) => actions.updateItem(item.id, body))} />
                ))}
              </ul>
            </section>
          );
        })}
        {transcribed && notes.status === 'ready' && !meeting.summary && shown.length === 0 && dismissed === 0 && (
          <p className="text-sm text-muted-foreground">No notes were found in this transcript.</p>
        )}
        {actions && dismissed > 0 && (
          <Button size="sm" variant="link" className="justify-self-start px-0" onClick={() => setShowDismissed((show) => !show)}>
            {showDismissed ? 'Hide dismissed' : `Show dismissed (${dismissed})`}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
