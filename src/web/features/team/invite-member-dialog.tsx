import { CopyIcon, LinkIcon, UserPlusIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from '#web/lib/toast.ts';
import type { CreatedInvitation, InvitedRole, Team } from '#shared/contracts/teams.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '#web/components/ui/dialog.tsx';
import { FormError } from '#web/components/ui/form-error.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '#web/components/ui/select.tsx';
import { Separator } from '#web/components/ui/separator.tsx';
import { copyText } from '#web/lib/clipboard.ts';
import { useInvitations, useInvite, useRevokeInvitation } from './api.ts';

const expiry = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** The 'Invite Member' button; what it opens is up to the page (the dialog below, or creating a first team). */
export function InviteMemberButton({ onClick, disabled, title }: { onClick: () => void; disabled?: boolean; title?: string }) {
  return (
    <Button onClick={onClick} disabled={disabled} title={title}>
      <UserPlusIcon aria-hidden="true" />
      Invite Member
    </Button>
  );
}

function RoleSelect({ id, value, onChange, label }: { id: string; value: InvitedRole; onChange: (role: InvitedRole) => void; label: string }) {
  return (
    <Select value={value} onValueChange={(next) => onChange(next === 'admin' ? 'admin' : 'member')}>
      <SelectTrigger id={id} aria-label={label} className="w-32">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value="member">Member</SelectItem>
        <SelectItem value="admin">Admin</SelectItem>
      </SelectContent>
    </Select>
  );
}

/**
 * Invites to a team (owners and admins): by email (the server sends the link), or as a link to copy
 * and pass on, each with its role; and the team's open invitations with Revoke. The server's refusals
 * (already a member, too many open invitations, no mail server) show in the dialog and as toasts.
 */
export function InviteMemberDialog({ team, open, onOpenChange }: { team: Team; open: boolean; onOpenChange: (open: boolean) => void }) {
  const invite = useInvite(team.id);
  const revoke = useRevokeInvitation(team.id);
  const invitations = useInvitations(team.id, open);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<InvitedRole>('member');
  const [linkRole, setLinkRole] = useState<InvitedRole>('member');
  const [error, setError] = useState<string | null>(null);
  // The link's token is shown once: the server keeps only its hash.
  const [link, setLink] = useState<CreatedInvitation | null>(null);

  const handleOpenChange = (next: boolean) => {
    if (!next) {
      setError(null);
      setLink(null);
      setEmail('');
    }
    onOpenChange(next);
  };

  const onSend = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    invite.mutate(
      { email: email.trim(), role },
      {
        onSuccess: () => setEmail(''),
        onError: (failure) => setError(failure.message),
      },
    );
  };

  const onCreateLink = () => {
    setError(null);
    invite.mutate(
      { role: linkRole },
      {
        onSuccess: (created) => {
          setLink(created);
          void copyText(created.url).then((copied) => copied && toast.success('Invite link copied'));
        },
        onError: (failure) => setError(failure.message),
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Invite a team member</DialogTitle>
          <DialogDescription>
            Invite someone to {team.name}. An invitation works once and expires after 7 days; the person signs in or creates an account to accept it.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={onSend} className="grid gap-2">
          <Label htmlFor="invite-email">Email address</Label>
          <div className="flex flex-wrap gap-2">
            <Input
              id="invite-email"
              type="email"
              required
              placeholder="colleague@example.com"
              autoComplete="off"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              className="min-w-48 flex-1"
              aria-describedby="invite-email-hint"
            />
            <RoleSelect id="invite-role" value={role} onChange={setRole} label="Role" />
          </div>
          <p id="invite-email-hint" className="text-sm text-muted-foreground">
            Only an account with this email address can accept the invitation.
          </p>
          <Button type="submit" disabled={invite.isPending || email.trim() === ''} className="justify-self-end">
            Send Invitation
          </Button>
        </form>
        <FormError>{error}</FormError>
        <Separator />
        <div className="grid gap-2">
          <p className="text-sm font-medium">Or share an invite link</p>
          <p className="text-sm text-muted-foreground">
            Anyone with the link can join once, with the role you choose, whatever their email address: share it only with the person you mean.
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <RoleSelect id="invite-link-role" value={linkRole} onChange={setLinkRole} label="Role for the link" />
            <Button type="button" variant="outline" onClick={onCreateLink} disabled={invite.isPending}>
              <LinkIcon aria-hidden="true" />
              Create invite link
            </Button>
          </div>
          {link && (
            <div className="flex gap-2">
              <Input readOnly value={link.url} aria-label="Invite link" onFocus={(event) => event.currentTarget.select()} />
              <Button
                type="button"
                variant="outline"
                onClick={() => void copyText(link.url).then((copied) => (copied ? toast.success('Invite link copied') : toast.error('Copy the link by hand')))}
              >
                <CopyIcon aria-hidden="true" />
                Copy
              </Button>
            </div>
          )}
        </div>
        <Separator />
        <section aria-labelledby="open-invitations" className="grid gap-2">
          <h3 id="open-invitations" className="text-sm font-medium">
            Open invitations
          </h3>
          {invitations.isError && <p className="text-sm text-destructive">{invitations.error.message}</p>}
          {invitations.data?.items.length === 0 && <p className="text-sm text-muted-foreground">No open invitations.</p>}
          <ul aria-label="Open invitations" className="grid max-h-48 gap-2 overflow-y-auto">
            {invitations.data?.items.map((invitation) => (
              <li key={invitation.id} className="flex items-center gap-2 text-sm">
                <span className="min-w-0 flex-1">
                  <span className="block truncate">
                    {invitation.email ?? 'Invite link'} · {invitation.role === 'admin' ? 'Admin' : 'Member'} · expires{' '}
                    {expiry.format(new Date(invitation.expiresAt))}
                  </span>
                  {invitation.emailError && (
                    <span role="status" className={invitation.emailStatus === 'failed' ? 'block text-destructive' : 'block text-muted-foreground'}>
                      {invitation.emailError}
                    </span>
                  )}
                </span>
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={revoke.isPending}
                  aria-label={`Revoke the invitation ${invitation.email ? `to ${invitation.email}` : 'link'}`}
                  onClick={() => revoke.mutate(invitation.id)}
                >
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        </section>
      </DialogContent>
    </Dialog>
  );
}
