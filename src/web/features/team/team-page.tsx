import { useState } from 'react';
import type { Team } from '#shared/contracts/teams.ts';
import { PageHeader } from '#web/components/layout/page-header.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '#web/components/ui/select.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { useAuth } from '#web/lib/auth/use-auth.ts';
import { avatarUrlOf, displayNameOf } from '#web/lib/auth/user-identity.ts';
import { useCreateTeam, useTeamActivity, useTeamMembers, useTeams } from './api.ts';
import { InviteMemberButton, InviteMemberDialog } from './invite-member-dialog.tsx';
import { MemberCard } from './member-card.tsx';
import { MemberProfileDetails } from './member-profile-details.tsx';
import { MemberActions, TeamMenu, TeamNameDialog } from './team-actions.tsx';
import { TeamActivity } from './team-activity.tsx';
import { TeamChannels } from './team-channels.tsx';
import { activityLine, groupByDay, memberView, SAMPLE_ACTIVITY, SAMPLE_MEMBERS, type TeamMember } from './team-data.ts';
import { useSelectedTeam } from './use-selected-team.ts';

const SUBTITLE = 'Manage your team members and their access.';

/**
 * /team (spec §2): the members of the person's team and its activity. Someone in several teams
 * picks one (remembered in this browser); someone in none sees the sample team, and Invite Member
 * creates their first team.
 */
export function TeamPage({ meetingCount }: { meetingCount: number | null }) {
  const { user } = useAuth();
  const teams = useTeams();
  const [selectedId, select] = useSelectedTeam(user?.id, teams.data?.items);
  const team = teams.data?.items.find((t) => t.id === selectedId);
  // A team just created from the sample page opens with the invite dialog: the step the person began with.
  const [justCreated, setJustCreated] = useState<string | null>(null);

  if (teams.isPending) {
    return (
      <div className="mx-auto max-w-6xl">
        <PageHeader title="Team" description={SUBTITLE} />
        <p role="status" className="text-sm text-muted-foreground">
          Loading your team…
        </p>
      </div>
    );
  }
  if (teams.isError) {
    return (
      <div className="mx-auto max-w-6xl">
        <PageHeader title="Team" description={SUBTITLE} />
        <p role="alert" className="text-sm text-destructive">
          {teams.error.message}
        </p>
      </div>
    );
  }
  if (!team) {
    return (
      <SampleTeam
        meetingCount={meetingCount}
        onCreated={(teamId) => {
          setJustCreated(teamId);
          select(teamId);
        }}
      />
    );
  }
  return <RealTeam key={team.id} team={team} teams={teams.data.items} onSelect={select} youId={user?.id ?? ''} inviteFirst={justCreated === team.id} />;
}

type RealTeamProps = { team: Team; teams: Team[]; onSelect: (teamId: string | null) => void; youId: string; inviteFirst: boolean };

function RealTeam({ team, teams, onSelect, youId, inviteFirst }: RealTeamProps) {
  const members = useTeamMembers(team.id);
  const activity = useTeamActivity(team.id);
  const [inviting, setInviting] = useState(inviteFirst);
  const now = new Date();
  const manages = team.role !== 'member';
  const cards = (members.data?.items ?? []).map((member) => memberView(member, youId, now));
  // You first, then as the server orders them (by when they joined).
  cards.sort((a, b) => Number(b.isYou) - Number(a.isYou));
  const groups = groupByDay(activity.data?.items ?? [], now).map((group) => ({ label: group.label, entries: group.entries.map((e) => activityLine(e, now)) }));

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Team"
        description={SUBTITLE}
        actions={
          // Wraps on a phone: the switcher, the settings and Invite Member do not fit one narrow line.
          <div className="flex flex-wrap items-center gap-2">
            {teams.length > 1 ? (
              <Select value={team.id} onValueChange={onSelect}>
                <SelectTrigger aria-label="Team" className="w-44 sm:w-48">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {teams.map((t) => (
                    <SelectItem key={t.id} value={t.id}>
                      {t.name}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            ) : (
              <span className="self-center text-sm font-medium">{team.name}</span>
            )}
            <TeamMenu team={team} youId={youId} onGone={() => onSelect(null)} />
            <InviteMemberButton
              onClick={() => setInviting(true)}
              disabled={!manages}
              {...(manages ? {} : { title: 'Only the team’s owner and admins can invite members' })}
            />
          </div>
        }
      />
      {manages && <InviteMemberDialog team={team} open={inviting} onOpenChange={setInviting} />}
      <Tabs defaultValue="members" className="gap-6">
        <TabsList>
          <TabsTrigger value="members">Team Members</TabsTrigger>
          <TabsTrigger value="activity">Activity</TabsTrigger>
          <TabsTrigger value="channels">Channels</TabsTrigger>
        </TabsList>
        <TabsContent value="members" className="grid gap-3">
          {members.isPending && (
            <p role="status" className="text-sm text-muted-foreground">
              Loading members…
            </p>
          )}
          {members.isError && (
            <p role="alert" className="text-sm text-destructive">
              {members.error.message}
            </p>
          )}
          <ul aria-label="Team members" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {cards.map((member) => (
              <li key={member.id}>
                <MemberCard
                  member={member}
                  actions={<MemberActions team={team} member={member} onLeft={() => onSelect(null)} />}
                  profile={<MemberProfileDetails teamId={team.id} member={member} />}
                />
              </li>
            ))}
          </ul>
        </TabsContent>
        <TabsContent value="activity">
          <TeamActivity
            groups={groups}
            sample={false}
            {...(activity.isPending ? { state: 'loading' as const } : activity.isError ? { state: 'error' as const } : {})}
          />
        </TabsContent>
        <TabsContent value="channels">
          <TeamChannels team={team} />
        </TabsContent>
      </Tabs>
    </div>
  );
}

/** The signed-in person, first on the sample team: name, picture and email from the session, and their own meeting count (null while it loads). */
function useYou(meetingCount: number | null): TeamMember {
  const { user } = useAuth();
  const avatar = avatarUrlOf(user);
  return {
    id: 'you',
    name: displayNameOf(user),
    ...(avatar ? { avatar } : {}),
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

/** A person in no team yet: the sample team around them; Invite Member first asks their team's name, then invites. */
function SampleTeam({ meetingCount, onCreated }: { meetingCount: number | null; onCreated: (teamId: string) => void }) {
  const members = [useYou(meetingCount), ...SAMPLE_MEMBERS];
  const create = useCreateTeam();
  const [naming, setNaming] = useState(false);
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="Team" description={SUBTITLE} actions={<InviteMemberButton onClick={() => setNaming(true)} />} />
      <TeamNameDialog
        open={naming}
        onOpenChange={setNaming}
        title="Create your team"
        description="Name your team first; then invite people to it. You will be its owner."
        submit="Create team"
        busy={create.isPending}
        onSubmit={(name) =>
          create.mutate(name, {
            onSuccess: (team) => {
              setNaming(false);
              onCreated(team.id);
            },
          })
        }
      />
      <Tabs defaultValue="members" className="gap-6">
        <TabsList>
          <TabsTrigger value="members">Team Members</TabsTrigger>
          <TabsTrigger value="activity">Activity</TabsTrigger>
        </TabsList>
        <TabsContent value="members" className="grid gap-3">
          <p className="text-sm text-muted-foreground">You are not in a team yet: everyone but you is a sample member. Invite Member creates your team.</p>
          <ul aria-label="Team members" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {members.map((member) => (
              <li key={member.id}>
                <MemberCard member={member} />
              </li>
            ))}
          </ul>
        </TabsContent>
        <TabsContent value="activity">
          <TeamActivity groups={SAMPLE_ACTIVITY} sample />
        </TabsContent>
      </Tabs>
    </div>
  );
}
