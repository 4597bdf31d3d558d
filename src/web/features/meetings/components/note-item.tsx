import { CheckIcon, PencilIcon, RotateCcwIcon, XIcon } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import type { Insight, UpdateNoteItemBody } from '#shared/contracts/notes.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { formatClock, formatDay } from '#web/lib/format.ts';
import { cn } from '#web/lib/utils.ts';

/** What a citation jumps to: the segments it cites (lit in the transcript) and where they start (the player seeks there). */
export type CitedMoment = Pick<Insight, 'segmentIds' | 'startMs'>;

/** Saves a change to one item; resolves true when the server took it (a failure has been told already). */
export type UpdateItem = (body: UpdateNoteItemBody) => Promise<boolean>;

/** Where an item was said: "00:35"; a topic's span "01:10–04:20". */
export function itemTime(item: Insight): string {
  const start = formatClock(item.startMs / 1000);
  return item.kind === 'topic' && item.endMs !== null ? `${start}–${formatClock(item.endMs / 1000)}` : start;
}

/** The words the date was read from first, as the share page shows it: "Due by Friday (Fri, Nov 27, 2026)". */
function dueLabel(item: Insight): string | null {
  if (item.due) return item.dueText ? `Due ${item.dueText} (${formatDay(item.due)})` : `Due ${formatDay(item.due)}`;
  return item.dueText ? `Due ${item.dueText}` : null;
}

/**
 * One item of the notes: its time and words jump to where it was said; action items show their
 * owner and due date and tick done; a suggestion of the local engine is marked as one, with Accept,
 * Edit and Dismiss; a dismissed item offers Restore. Without `onUpdate` it is read-only.
 */
export function NoteItem({ item, onJump, onUpdate }: { item: Insight; onJump: (moment: CitedMoment) => void; onUpdate?: UpdateItem | undefined }) {
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);
  const save = async (body: UpdateNoteItemBody) => {
    if (!onUpdate) return false;
    setBusy(true);
    try {
      return await onUpdate(body);
    } finally {
      setBusy(false);
    }
  };
  const dismissed = item.status === 'dismissed';
  const done = item.status === 'done';
  const time = itemTime(item);
  const due = item.kind === 'action_item' ? dueLabel(item) : null;

  if (editing && onUpdate) {
    return (
      <li className="rounded-md border p-2">
        <ItemEditor item={item} busy={busy} onCancel={() => setEditing(false)} onSave={(body) => save(body).then((ok) => ok && setEditing(false))} />
      </li>
    );
  }
  const editButtons = onUpdate && (
    <>
      <Button size="icon" variant="ghost" className="size-7" aria-label="Edit" title="Edit" disabled={busy} onClick={() => setEditing(true)}>
        <PencilIcon />
      </Button>
      <Button
        size="icon"
        variant="ghost"
        className="size-7"
        aria-label="Dismiss"
        title="Dismiss"
        disabled={busy}
        onClick={() => void save({ status: 'dismissed' })}
      >
        <XIcon />
      </Button>
    </>
  );
  return (
    <li
      data-suggested={item.suggested}
      data-status={item.status}
      className={cn('group grid gap-1 rounded-md px-2 py-1.5 text-sm', dismissed && 'opacity-60', item.suggested && !dismissed && 'bg-muted/40')}
    >
      <div className="flex items-start gap-2">
        {item.kind === 'action_item' && (
          <Checkbox
            className="mt-0.5"
            aria-label="Done"
            checked={done}
            disabled={!onUpdate || busy || dismissed}
            onCheckedChange={(checked) => void save({ status: checked === true ? 'done' : 'open' })}
          />
        )}
        <button
          type="button"
          className="flex flex-1 items-start gap-2 rounded-sm text-left hover:text-primary focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
          title="Go to where this was said"
          onClick={() => onJump(item)}
        >
          <span className="mt-0.5 shrink-0 font-mono text-xs text-primary">{time}</span>
          <span className={cn((done || dismissed) && 'text-muted-foreground line-through')}>{item.text}</span>
        </button>
        {/* Reviewed items keep their tools out of the way until pointed at (always there on touch screens). */}
        {!item.suggested && !dismissed && editButtons && (
          <span className="-my-1 flex shrink-0 md:opacity-0 md:group-focus-within:opacity-100 md:group-hover:opacity-100">{editButtons}</span>
        )}
      </div>
      {item.kind === 'action_item' && (
        <p className="flex flex-wrap gap-x-3 pl-6 text-xs text-muted-foreground">
          <span>Owner: {item.assignee ?? 'Unassigned'}</span>
          {due && <span>{due}</span>}
        </p>
      )}
      {onUpdate && dismissed && (
        <Button size="sm" variant="ghost" className="h-7 justify-self-start" disabled={busy} onClick={() => void save({ status: 'open' })}>
          <RotateCcwIcon aria-hidden="true" /> Restore
        </Button>
      )}
      {item.suggested && !dismissed && (
        <div className={cn('flex items-center gap-1', item.kind === 'action_item' && 'pl-6')}>
          <Badge variant="outline" className="mr-1">
            Suggestion
          </Badge>
          {onUpdate && (
            <Button size="sm" variant="outline" className="h-7" disabled={busy} onClick={() => void save({ accepted: true })}>
              <CheckIcon aria-hidden="true" /> Accept
            </Button>
          )}
          {editButtons}
        </div>
      )}
    </li>
  );
}

/** The words of an item, and an action item's owner and due date; only what changed is sent. */
function ItemEditor({
  item,
  busy,
  onSave,
  onCancel,
}: {
  item: Insight;
  busy: boolean;
  onSave: (body: UpdateNoteItemBody) => Promise<unknown>;
  onCancel: () => void;
}) {
  const id = useId();
  const [text, setText] = useState(item.text);
  const [owner, setOwner] = useState(item.assignee ?? '');
  const [due, setDue] = useState(item.due ?? '');
  const isAction = item.kind === 'action_item';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: UpdateNoteItemBody = {};
    if (text.trim() !== item.text) body.text = text.trim();
    if (isAction && (owner.trim() || null) !== item.assignee) body.assignee = owner.trim() || null;
    if (isAction && (due || null) !== item.due) body.due = due || null;
    if (Object.keys(body).length === 0) onCancel();
    else void onSave(body);
  };

  return (
    <form className="grid gap-2" onSubmit={submit}>
      <Label htmlFor={`${id}-text`}>Text</Label>
      <textarea
        id={`${id}-text`}
        className="min-h-16 w-full rounded-md border bg-background p-2 text-sm"
        value={text}
        onChange={(e) => setText(e.target.value)}
        maxLength={2000}
        required
        autoFocus
      />
      {isAction && (
        <div className="grid gap-2 sm:grid-cols-2">
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-owner`}>Owner</Label>
            <Input id={`${id}-owner`} value={owner} onChange={(e) => setOwner(e.target.value)} placeholder="Unassigned" maxLength={100} />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-due`}>Due date</Label>
            <Input id={`${id}-due`} type="date" value={due} onChange={(e) => setDue(e.target.value)} />
          </div>
        </div>
      )}
      <span className="flex gap-2">
        <Button size="sm" type="submit" disabled={busy || text.trim() === ''}>
          <CheckIcon aria-hidden="true" /> Save
        </Button>
        <Button size="sm" type="button" variant="outline" onClick={onCancel}>
          <XIcon aria-hidden="true" /> Cancel
        </Button>
      </span>
    </form>
  );
}
