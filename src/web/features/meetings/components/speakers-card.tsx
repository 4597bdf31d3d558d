import { AlertDialog as AlertDialogPrimitive } from 'radix-ui';
import { MoreHorizontalIcon } from 'lucide-react';
import { useId, useState } from 'react';
import type { Speaker } from '#shared/contracts/meetings.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuTrigger } from '#web/components/ui/dropdown-menu.tsx';
import { Input } from '#web/components/ui/input.tsx';

export type SpeakerEditing = {
  renameSpeaker: (speakerId: string, displayName: string) => Promise<unknown>;
  mergeSpeaker: (speakerId: string, intoSpeakerId: string) => Promise<unknown>;
  /** Names given to speakers in the person's meetings, offered when naming one. */
  speakerNames?: readonly string[] | undefined;
};

const nameOf = (speaker: Speaker) => speaker.displayName ?? speaker.label;
const sameName = (a: string, b: string) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

/**
 * The meeting's speakers: each can be named (from the names already used in the person's meetings)
 * or merged into another, when diarization heard one voice as two. Naming a speaker as another of
 * this meeting is called merges them, after asking.
 */
export function SpeakersCard({ speakers, editing }: { speakers: Speaker[]; editing: SpeakerEditing | undefined }) {
  const [merging, setMerging] = useState<{ from: Speaker; into: Speaker } | null>(null);
  const [busy, setBusy] = useState(false);
  const listId = useId();
  const merge = () => {
    if (!merging || !editing) return;
    setBusy(true);
    void editing
      .mergeSpeaker(merging.from.id, merging.into.id)
      .then(() => setMerging(null))
      .finally(() => setBusy(false));
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Speakers</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-2">
        {editing?.speakerNames && (
          <datalist id={listId}>
            {editing.speakerNames.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
        )}
        {speakers.map((speaker) => (
          <SpeakerRow
            key={speaker.id}
            speaker={speaker}
            others={speakers.filter((s) => s.id !== speaker.id)}
            namesListId={editing?.speakerNames ? listId : undefined}
            onRename={
              editing
                ? async (name) => {
                    const namesake = speakers.find((s) => s.id !== speaker.id && s.displayName !== null && sameName(s.displayName, name));
                    if (namesake) {
                      setMerging({ from: speaker, into: namesake });
                      return;
                    }
                    await editing.renameSpeaker(speaker.id, name);
                  }
                : undefined
            }
            onMerge={editing ? (into) => setMerging({ from: speaker, into }) : undefined}
          />
        ))}
      </CardContent>
      <AlertDialogPrimitive.Root open={merging !== null} onOpenChange={(open) => !open && setMerging(null)}>
        <AlertDialogPrimitive.Portal>
          <AlertDialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50" />
          <AlertDialogPrimitive.Content className="fixed top-[50%] left-[50%] z-50 grid w-full max-w-[calc(100%-2rem)] translate-x-[-50%] translate-y-[-50%] gap-4 rounded-lg border bg-background p-6 shadow-lg sm:max-w-lg">
            <AlertDialogPrimitive.Title className="text-lg font-semibold">
              Merge {merging && nameOf(merging.from)} into {merging && nameOf(merging.into)}?
            </AlertDialogPrimitive.Title>
            <AlertDialogPrimitive.Description className="text-sm text-muted-foreground">
              {merging && `All of ${nameOf(merging.from)}’s lines become ${nameOf(merging.into)}’s, and ${nameOf(merging.from)} is removed from the speakers.`}
            </AlertDialogPrimitive.Description>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <AlertDialogPrimitive.Cancel asChild>
                <Button variant="outline" disabled={busy}>
                  Cancel
                </Button>
              </AlertDialogPrimitive.Cancel>
              {/* Not AlertDialog.Action: that would close the dialog before the server has answered. */}
              <Button onClick={merge} disabled={busy}>
                {busy ? 'Merging...' : 'Merge speakers'}
              </Button>
            </div>
          </AlertDialogPrimitive.Content>
        </AlertDialogPrimitive.Portal>
      </AlertDialogPrimitive.Root>
    </Card>
  );
}

function SpeakerRow({
  speaker,
  others,
  namesListId,
  onRename,
  onMerge,
}: {
  speaker: Speaker;
  others: Speaker[];
  namesListId: string | undefined;
  onRename: ((name: string) => Promise<unknown>) | undefined;
  onMerge: ((into: Speaker) => void) | undefined;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(speaker.displayName ?? '');
  const name = nameOf(speaker);
  if (editing && onRename) {
    return (
      <form
        className="flex gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (draft.trim()) void onRename(draft.trim()).then(() => setEditing(false));
        }}
      >
        <Input
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              setDraft(speaker.displayName ?? '');
              setEditing(false);
            }
          }}
          aria-label={`Name for ${speaker.label}`}
          list={namesListId}
          autoComplete="off"
          maxLength={100}
          autoFocus
        />
        <Button size="sm" type="submit" disabled={!draft.trim()}>
          Save
        </Button>
      </form>
    );
  }
  return (
    <div className="flex items-center justify-between gap-2 text-sm">
      <span>
        <span className="font-medium">{name}</span>
        {speaker.displayName && <span className="ml-2 text-xs text-muted-foreground">{speaker.label}</span>}
      </span>
      {onRename && (
        <span className="flex items-center">
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              setDraft(speaker.displayName ?? '');
              setEditing(true);
            }}
            aria-label={`Rename ${name}`}
          >
            Rename
          </Button>
          {onMerge && others.length > 0 && (
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <Button size="icon" variant="ghost" className="size-8" aria-label={`More for ${name}`}>
                  <MoreHorizontalIcon />
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent align="end">
                <DropdownMenuLabel>Merge {name} into</DropdownMenuLabel>
                {others.map((other) => (
                  <DropdownMenuItem key={other.id} onSelect={() => onMerge(other)}>
                    {nameOf(other)}
                  </DropdownMenuItem>
                ))}
              </DropdownMenuContent>
            </DropdownMenu>
          )}
        </span>
      )}
    </div>
  );
}
