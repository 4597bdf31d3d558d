import { UsersIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '#web/components/ui/dialog.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { paths } from '#web/app/paths.ts';
import { sortedTeams, useMyTeams } from '#web/lib/my-teams.ts';
import { useShareWithTeam } from '../api.ts';

const PRIVATE = 'private';

type ShareWithTeamDialogProps = {
  meeting: { id: string; title: string; teamId?: string | null | undefined };
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/**
 * The owner shares their meeting with one of their teams (its members read, play, search and export
 * it; only the owner changes it), moves it to another team, or makes it private again.
 */
export function ShareWithTeamDialog({ meeting, open, onOpenChange }: ShareWithTeamDialogProps) {
  const teams = useMyTeams(open);
  const share = useShareWithTeam(meeting.id);
  const current = meeting.teamId ?? null;
  const [choice, setChoice] = useState<string>(current ?? PRIVATE);
  const handleOpenChange = (next: boolean) => {
    // Each opening starts from how the meeting is shared now.
    if (next) setChoice(current ?? PRIVATE);
    onOpenChange(next);
  };
  const listed = sortedTeams(teams.data ?? []);
  const nameOf = (teamId: string | null) => (teamId === null ? undefined : listed.find((t) => t.id === teamId)?.name);
  const currentName = nameOf(current);

  const save = () => {
    const teamId = choice === PRIVATE ? null : choice;
    share.mutate(teamId, {
      onSuccess: () => {
        if (teamId === null) toast.success('Meeting is private', { description: `Only you can see “${meeting.title}” now.` });
        else toast.success(`Shared with ${nameOf(teamId) ?? 'the team'}`, { description: 'Its members can read, play and export it.' });
        onOpenChange(false);
      },
      onError: (error) => toast.error(`Sharing failed: ${error.message}`),
    });
  };

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Share with team</DialogTitle>
          <DialogDescription>
            Members of the team can read, play, search and export “{meeting.title}”. Only you can edit, share by link or delete it.
          </DialogDescription>
        </DialogHeader>
        <p className="text-sm" role="status">
          {current === null ? 'Private: only you can see this meeting.' : `Shared with ${currentName ?? 'a team'}.`}
        </p>
        {teams.isPending ? (
          <Skeleton className="h-20" />
        ) : teams.isError ? (
          <p className="text-sm text-destructive">Your teams could not be loaded: {teams.error.message}</p>
        ) : (
          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">Who can see it</legend>
            <ChoiceRow value={PRIVATE} checked={choice === PRIVATE} onSelect={setChoice} label="Private" hint="Only you" />
            {listed.map((team) => (
              <ChoiceRow
                key={team.id}
                value={team.id}
                checked={choice === team.id}
                onSelect={setChoice}
                label={team.name}
                hint={team.memberCount === 1 ? '1 member' : `${team.memberCount} members`}
              />
            ))}
            {listed.length === 0 && (
              <p className="text-sm text-muted-foreground">
                You are not in a team yet.{' '}
                <Link className="underline" to={paths.team.href()}>
                  Create or join one on the Team page
                </Link>
                .
              </p>
            )}
          </fieldset>
        )}
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="button" onClick={save} disabled={share.isPending || choice === (current ?? PRIVATE)}>
            {share.isPending ? 'Saving...' : 'Save'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function ChoiceRow({
  value,
  checked,
  onSelect,
  label,
  hint,
}: {
  value: string;
  checked: boolean;
  onSelect: (value: string) => void;
  label: string;
  hint: string;
}) {
  return (
    <label className="flex cursor-pointer items-center gap-3 rounded-md border px-3 py-2 text-sm has-[:checked]:border-primary has-[:checked]:ring-1 has-[:checked]:ring-primary">
      <input type="radio" name="share-with-team" value={value} checked={checked} onChange={() => onSelect(value)} className="accent-primary" />
      {value !== PRIVATE && <UsersIcon className="size-4 text-muted-foreground" aria-hidden="true" />}
      <span className="font-medium">{label}</span>
      <span className="ml-auto text-xs text-muted-foreground">{hint}</span>
    </label>
  );
}
