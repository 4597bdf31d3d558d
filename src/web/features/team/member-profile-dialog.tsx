import type { ReactNode } from 'react';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '#web/components/ui/dialog.tsx';
import { AvailabilityBadge } from './availability-badge.tsx';
import { MemberAvatar } from './member-avatar.tsx';
import { formatCount, type TeamMember } from './team-data.ts';

/** 'View Profile': the member's details in a dialog, and what the team page adds (their shared meetings, their action items). */
export function MemberProfileDialog({ member, children }: { member: TeamMember; children?: ReactNode }) {
  const details = [
    {
      label: 'Email',
      value: (
        <a href={`mailto:${member.email}`} className="text-primary underline-offset-4 hover:underline">
          {member.email}
        </a>
      ),
    },
    { label: 'Role', value: member.role },
    { label: 'Last active', value: member.lastActive },
    { label: 'Meetings recorded', value: formatCount(member.meetingsRecorded) },
    { label: 'Meetings attended', value: formatCount(member.meetingsAttended) },
  ];
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" className="w-full" aria-label={`View Profile of ${member.name}`}>
          View Profile
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90svh] overflow-y-auto">
        <DialogHeader>
          <div className="flex items-center gap-4">
            <MemberAvatar member={member} className="size-16" />
            <div className="grid gap-1.5 text-left">
              <DialogTitle>{member.name}</DialogTitle>
              <DialogDescription>{member.role}</DialogDescription>
              <div className="flex flex-wrap gap-1.5">
                <AvailabilityBadge member={member} />
                {member.isYou && <Badge variant="secondary">You</Badge>}
                {member.isSample && <Badge variant="outline">Sample</Badge>}
              </div>
            </div>
          </div>
        </DialogHeader>
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
          {details.map((detail) => (
            <div key={detail.label} className="contents">
              <dt className="text-muted-foreground">{detail.label}</dt>
              <dd className="min-w-0 truncate">{detail.value}</dd>
            </div>
          ))}
        </dl>
        {member.isSample && <p className="text-sm text-muted-foreground">A sample member: invite people to a team of your own to see them here.</p>}
        {children}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Close</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
