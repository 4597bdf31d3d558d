import { Avatar, AvatarFallback, AvatarImage } from '#web/components/ui/avatar.tsx';
import { cn } from '#web/lib/utils.ts';
import { initialsOfName, type TeamMember } from './team-data.ts';

/** The member's picture when there is one, otherwise their initials (spec §2 /team). */
export function MemberAvatar({ member, className }: { member: Pick<TeamMember, 'name' | 'avatar'>; className?: string }) {
  return (
    <Avatar className={cn('size-12', className)}>
      {member.avatar && <AvatarImage src={member.avatar} alt="" />}
      <AvatarFallback className="bg-primary/10 font-medium text-primary">{initialsOfName(member.name)}</AvatarFallback>
    </Avatar>
  );
}
