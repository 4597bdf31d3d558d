import { EllipsisVerticalIcon, SettingsIcon } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { MAX_TEAM_NAME_LENGTH, type Team, type TeamRole } from '#shared/contracts/teams.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '#web/components/ui/dialog.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '#web/components/ui/dropdown-menu.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { useDeleteTeam, useRemoveMember, useRenameTeam, useUpdateMember } from './api.ts';
import type { TeamMember } from './team-data.ts';

type Confirmation = { title: string; description: string; confirm: string; destructive?: boolean; run: () => void };

/**
 * Leaving a team is asked the same way from your own card and from the team's settings menu. The
 * server makes the meetings the person shared with the team private again, and ends an admin's invitations.
 */
const leaveConfirmation = (team: Team, run: () => void): Confirmation => ({
  title: `Leave ${team.name}?`,
  description: [
    'You will no longer see the meetings shared with this team, and the meetings you shared with it stop being shared: they become private to you again.',
    team.role === 'admin' ? 'The invitations you sent to it stop working.' : '',
    'To come back, you need a new invitation.',
  ]
    .filter(Boolean)
    .join(' '),
  confirm: 'Leave team',
  destructive: true,
  run,
});

/**
 * Runs `then` once the change succeeded. mutateAsync rather than mutate's own callbacks: those are
 * skipped once the component is gone, as this menu is when the team's data read again drops the team.
 * A failure was already toasted by the mutation itself.
 */
const afterSuccess = (change: Promise<unknown>, then: () => void) => void change.then(then, () => undefined);

/** "Are you sure?" before a change that cannot simply be undone (remove, leave, transfer, delete). */
function ConfirmDialog({ confirmation, onClose }: { confirmation: Confirmation | null; onClose: () => void }) {
  return (
    <Dialog open={confirmation !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{confirmation?.title}</DialogTitle>
          <DialogDescription>{confirmation?.description}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button
            variant={confirmation?.destructive ? 'destructive' : 'default'}
            onClick={() => {
              confirmation?.run();
              onClose();
            }}
          >
            {confirmation?.confirm}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

const RANK: Record<TeamRole, number> = { owner: 3, admin: 2, member: 1 };

/**
 * What the caller may do to one member, as the server allows it (it checks again and its refusal is
 * shown): owners and admins change roles below owner and remove anyone but the owner; the owner
 * transfers ownership; anyone but the owner leaves.
 */
export function MemberActions({ team, member, onLeft }: { team: Team; member: TeamMember; onLeft: () => void }) {
  const update = useUpdateMember(team.id);
  const remove = useRemoveMember(team.id);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const target = member.teamRole;
  if (!target) return null;
  const manages = RANK[team.role] >= RANK.admin;
  const items: ReactNode[] = [];
  if (member.isYou) {
    if (target !== 'owner') {
      items.push(
        <DropdownMenuItem
          key="leave"
          variant="destructive"
          onSelect={() =>
            setConfirmation(leaveConfirmation(team, () => afterSuccess(remove.mutateAsync({ userId: member.id, name: member.name, leaving: true }), onLeft)))
          }
        >
          Leave team
        </DropdownMenuItem>,
      );
    }
  } else {
    if (manages && target !== 'owner') {
      const next: TeamRole = target === 'admin' ? 'member' : 'admin';
      items.push(
        <DropdownMenuItem key="role" onSelect={() => update.mutate({ userId: member.id, role: next, name: member.name })}>
          {next === 'admin' ? 'Make admin' : 'Make member'}
        </DropdownMenuItem>,
      );
    }
    if (team.role === 'owner') {
      items.push(
        <DropdownMenuItem
          key="transfer"
          onSelect={() =>
            setConfirmation({
              title: `Make ${member.name} the owner?`,
              description: `${member.name} becomes the owner of ${team.name} and you become an admin. Only the new owner can give it back.`,
              confirm: 'Transfer ownership',
              run: () => update.mutate({ userId: member.id, role: 'owner', name: member.name }),
            })
          }
        >
          Transfer ownership
        </DropdownMenuItem>,
      );
    }
    if (manages && target !== 'owner') {
      items.push(
        <DropdownMenuItem
          key="remove"
          variant="destructive"
          onSelect={() =>
            setConfirmation({
              title: `Remove ${member.name}?`,
              description: [
                `${member.name} loses access to ${team.name} and the meetings shared with it at once.`,
                `The meetings ${member.name} shared with the team stop being shared: they become private to ${member.name} again.`,
                target === 'admin' ? `The invitations ${member.name} sent stop working.` : '',
              ]
                .filter(Boolean)
                .join(' '),
              confirm: 'Remove',
              destructive: true,
              run: () => remove.mutate({ userId: member.id, name: member.name, leaving: false }),
            })
          }
        >
          Remove from team
        </DropdownMenuItem>,
      );
    }
  }
  if (items.length === 0) return null;
  return (
    <>
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="icon" aria-label={`Manage ${member.name}`}>
            <EllipsisVerticalIcon aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">{items}</DropdownMenuContent>
      </DropdownMenu>
      <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} />
    </>
  );
}

/** A team's name: asked when creating a first team, and when renaming one. */
export function TeamNameDialog({
  open,
  onOpenChange,
  title,
  description,
  submit,
  initialName = '',
  busy,
  onSubmit,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  submit: string;
  initialName?: string;
  busy: boolean;
  onSubmit: (name: string) => void;
}) {
  const [name, setName] = useState(initialName);
  const onForm = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (name.trim() !== '') onSubmit(name.trim());
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) setName(initialName);
        onOpenChange(next);
      }}
    >
      <DialogContent>
        <form onSubmit={onForm} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor="team-name">Team name</Label>
            <Input id="team-name" required maxLength={MAX_TEAM_NAME_LENGTH} value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" />
          </div>
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" disabled={busy || name.trim() === ''}>
              {submit}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The team's own settings: rename (owners and admins), delete (the owner), leave (anyone but the owner). */
export function TeamMenu({ team, youId, onGone }: { team: Team; youId: string; onGone: () => void }) {
  const rename = useRenameTeam(team.id);
  const remove = useDeleteTeam(team.id);
  const leave = useRemoveMember(team.id);
  const [renaming, setRenaming] = useState(false);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  return (
    <>
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger asChild>
          <Button variant="outline" size="icon" aria-label="Team settings">
            <SettingsIcon aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuLabel>{team.name}</DropdownMenuLabel>
          <DropdownMenuSeparator />
          {team.role !== 'member' && <DropdownMenuItem onSelect={() => setRenaming(true)}>Rename team</DropdownMenuItem>}
          {team.role !== 'owner' && (
            <DropdownMenuItem
              variant="destructive"
              onSelect={() =>
                setConfirmation(leaveConfirmation(team, () => afterSuccess(leave.mutateAsync({ userId: youId, name: '', leaving: true }), onGone)))
              }
            >
              Leave team
            </DropdownMenuItem>
          )}
          {team.role === 'owner' && (
            <DropdownMenuItem
              variant="destructive"
              onSelect={() =>
                setConfirmation({
                  title: `Delete ${team.name}?`,
                  description: 'Every member loses the team at once. Meetings shared with it stay with their owners, private again.',
                  confirm: 'Delete team',
                  destructive: true,
                  run: () => afterSuccess(remove.mutateAsync(undefined), onGone),
                })
              }
            >
              Delete team
            </DropdownMenuItem>
          )}
        </DropdownMenuContent>
      </DropdownMenu>
      <TeamNameDialog
        open={renaming}
        onOpenChange={setRenaming}
        title="Rename team"
        description="Every member sees the new name."
        submit="Save"
        initialName={team.name}
        busy={rename.isPending}
        onSubmit={(name) => rename.mutate(name, { onSuccess: () => setRenaming(false) })}
      />
      <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} />
    </>
  );
}
