import { ClockIcon, MailIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from '#web/components/ui/badge.tsx';
import { Card, CardContent, CardFooter, CardHeader } from '#web/components/ui/card.tsx';
import { AvailabilityBadge } from './availability-badge.tsx';
import { MemberAvatar } from './member-avatar.tsx';
import { MemberProfileDialog } from './member-profile-dialog.tsx';
import { formatCount, type TeamMember } from './team-data.ts';

/** One member (spec §2 /team): avatar, name, role, availability, contact, activity counts, View Profile. */
export function MemberCard({ member, actions, profile }: { member: TeamMember; actions?: ReactNode; profile?: ReactNode }) {
  const nameId = `member-${member.id}-name`;
  return (
    <Card className="h-full gap-4">
      <CardHeader className="flex items-start gap-3">
        <MemberAvatar member={member} />
        <div className="grid min-w-0 flex-1 gap-1">
          <h3 id={nameId} className="truncate font-semibold">
            {member.name}
          </h3>
          <p className="text-sm text-muted-foreground">{member.role}</p>
          <div className="flex flex-wrap gap-1.5">
            <AvailabilityBadge member={member} />
            {member.isYou && <Badge variant="secondary">You</Badge>}
            {member.isSample && <Badge variant="outline">Sample</Badge>}
          </div>
        </div>
        {actions}
      </CardHeader>
      <CardContent className="grid flex-1 gap-3 text-sm">
        <a href={`mailto:${member.email}`} className="flex min-w-0 items-center gap-2 text-muted-foreground hover:text-foreground">
          <MailIcon className="size-4 shrink-0" aria-hidden="true" />
          <span className="truncate">{member.email}</span>
        </a>
        <p className="flex items-center gap-2 text-muted-foreground">
          <ClockIcon className="size-4 shrink-0" aria-hidden="true" />
          Last active: {member.lastActive}
        </p>
        <dl className="grid grid-cols-2 gap-2 text-center">
          <Stat label="Meetings recorded" value={formatCount(member.meetingsRecorded)} />
          <Stat label="Meetings attended" value={formatCount(member.meetingsAttended)} />
        </dl>
      </CardContent>
      <CardFooter>
        <MemberProfileDialog member={member}>{profile}</MemberProfileDialog>
      </CardFooter>
    </Card>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid gap-0.5 rounded-md bg-muted/50 p-2">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="font-medium">{value}</dd>
    </div>
  );
}
