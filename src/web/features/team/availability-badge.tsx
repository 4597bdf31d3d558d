import { Badge } from '#web/components/ui/badge.tsx';
import { availabilityVariant, type TeamMember } from './team-data.ts';

/** data-variant names the style, so tests and tooling need not parse class names. */
export function AvailabilityBadge({ member }: { member: Pick<TeamMember, 'availability' | 'status'> }) {
  const variant = availabilityVariant(member.status);
  return (
    <Badge variant={variant} data-variant={variant} data-status={member.status}>
      {member.availability}
    </Badge>
  );
}
