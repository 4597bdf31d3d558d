import { PageHeader } from '#web/components/layout/page-header.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { useAuth } from '#web/lib/auth/use-auth.ts';
import { displayNameOf } from '#web/lib/auth/user-identity.ts';
import { InviteMemberDialog } from './invite-member-dialog.tsx';
import { MemberCard } from './member-card.tsx';
import { TeamActivity } from './team-activity.tsx';
import { SAMPLE_MEMBERS, type TeamMember } from './team-data.ts';

/**
 * The signed-in person, first on the team: name and email from the session, and their own meeting
 * count (null while it loads).
 */
function useYou(meetingCount: number | null): TeamMember {
  const { user } = useAuth();
  return {
    id: 'you',
    name: displayNameOf(user),
    role: 'Owner',
    email: user?.email ?? '',
    availability: 'Available',
    status: 'active',
    meetingsRecorded: meetingCount,
    meetingsAttended: meetingCount,
    lastActive: 'Now',
    isSample: false,
    isYou: true,
  };
}

/** /team (spec §2): members and their activity. */
export function TeamPage({ meetingCount }: { meetingCount: number | null }) {
  const members = [useYou(meetingCount), ...SAMPLE_MEMBERS];
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="Team" description="Manage your team members and their access." actions={<InviteMemberDialog />} />
      <Tabs defaultValue="members" className="gap-6">
        <TabsList>
          <TabsTrigger value="members">Team Members</TabsTrigger>
          <TabsTrigger value="activity">Activity</TabsTrigger>
        </TabsList>
        <TabsContent value="members" className="grid gap-3">
          <p className="text-sm text-muted-foreground">Team workspaces are not available on this installation yet: everyone but you is a sample member.</p>
          <ul aria-label="Team members" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {members.map((member) => (
              <li key={member.id}>
                <MemberCard member={member} />
              </li>
            ))}
          </ul>
        </TabsContent>
        <TabsContent value="activity">
          <TeamActivity />
        </TabsContent>
      </Tabs>
    </div>
  );
}
