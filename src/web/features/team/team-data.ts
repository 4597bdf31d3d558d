import {
  activityWords,
  AVAILABILITY_STATUS,
  type Availability as AvailabilityKey,
  type TeamActivity,
  type TeamMember as ApiMember,
  type TeamRole,
} from '#shared/contracts/teams.ts';

/**
 * The /team screen's data (spec §3 "Team member"): a team's real members as the server describes
 * them, or — for a person in no team yet — the sample team, every member of it marked as such.
 */

export type MemberStatus = 'active' | 'busy' | 'away';
export type Availability = 'Available' | 'In a meeting' | 'Away';

export type TeamMember = {
  id: string;
  name: string;
  /** An image address (the server's /api/v1/avatars/…); none: initials show. */
  avatar?: string;
  role: string;
  /** The role the server knows (owner, admin, member); undefined for sample members. */
  teamRole?: TeamRole;
  email: string;
  availability: Availability;
  status: MemberStatus;
  /** Null while the signed-in person's own counts are loading. */
  meetingsRecorded: number | null;
  meetingsAttended: number | null;
  lastActive: string;
  isSample: boolean;
  isYou: boolean;
};

export const ROLE_LABEL: Record<TeamRole, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };

/** "Now", "5 minutes ago", "3 hours ago", "2 days ago", or "Never" for someone never seen. */
export function lastActiveLabel(iso: string | null, now: Date): string {
  if (iso === null) return 'Never';
  const minutes = Math.floor((now.getTime() - Date.parse(iso)) / 60_000);
  if (minutes < 2) return 'Now';
  if (minutes < 60) return `${minutes} minutes ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return hours === 1 ? '1 hour ago' : `${hours} hours ago`;
  const days = Math.floor(hours / 24);
  return days === 1 ? '1 day ago' : `${days} days ago`;
}

/** A member's card as the server describes them: the status words come from the contract (spec §2). */
export function memberView(member: ApiMember, youId: string | undefined, now: Date): TeamMember {
  return {
    id: member.userId,
    name: member.name,
    ...(member.avatarUrl ? { avatar: member.avatarUrl } : {}),
    role: ROLE_LABEL[member.role],
    teamRole: member.role,
    email: member.email,
    availability: AVAILABILITY_STATUS[member.availability] as Availability,
    status: member.availability satisfies AvailabilityKey,
    meetingsRecorded: member.meetingsRecorded,
    meetingsAttended: member.meetingsAttended,
    lastActive: lastActiveLabel(member.lastActiveAt, now),
    isSample: false,
    isYou: member.userId === youId,
  };
}

export type ActivityGroupLabel = 'Today' | 'Yesterday' | 'Last Week' | 'Earlier';
/** `action` “`subject`” `after`: the words before the meeting's title, the title, the words after it. */
export type ActivityLine = { id: string; member: string; action: string; subject?: string; after?: string; meetingId?: string; time: string };
export type ActivityGroupOf<Entry> = { label: ActivityGroupLabel; entries: Entry[] };

const startOfDay = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate());
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Events grouped as the spec's Activity tab shows them, in the viewer's own time zone: Today,
 * Yesterday, Last Week (the 7 days before yesterday), and anything older as Earlier. Keeps the
 * order given (newest first) and leaves out empty groups.
 */
export function groupByDay<Entry extends { at: string }>(entries: readonly Entry[], now: Date): ActivityGroupOf<Entry>[] {
  const today = startOfDay(now).getTime();
  const labelOf = (at: string): ActivityGroupLabel => {
    const day = startOfDay(new Date(at)).getTime();
    // Days are not all 24 hours long (daylight saving): round the difference to whole days.
    const daysAgo = Math.round((today - day) / DAY_MS);
    if (daysAgo <= 0) return 'Today';
    if (daysAgo === 1) return 'Yesterday';
    if (daysAgo <= 8) return 'Last Week';
    return 'Earlier';
  };
  const groups: ActivityGroupOf<Entry>[] = [];
  for (const entry of entries) {
    const label = labelOf(entry.at);
    const group = groups.find((g) => g.label === label);
    if (group) group.entries.push(entry);
    else groups.push({ label, entries: [entry] });
  }
  const order: ActivityGroupLabel[] = ['Today', 'Yesterday', 'Last Week', 'Earlier'];
  return groups.sort((a, b) => order.indexOf(a.label) - order.indexOf(b.label));
}

/** How an event reads: "<actor> <action> “<subject>” <after>", as the email digest words it too. */
export function activityLine(event: TeamActivity, now: Date): ActivityLine {
  const { before, title, after } = activityWords(event);
  const meetingId = event.meeting?.id ?? undefined;
  return {
    id: event.id,
    member: event.actor.name,
    action: before,
    ...(title !== null ? { subject: title } : {}),
    ...(title !== null && after ? { after } : {}),
    ...(title !== null && meetingId ? { meetingId } : {}),
    time: timeLabel(event.at, now),
  };
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const weekdayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'long' });
const dateFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

/** Today and yesterday by the clock, the last week by weekday, anything older by date. */
function timeLabel(at: string, now: Date): string {
  const date = new Date(at);
  const daysAgo = Math.round((startOfDay(now).getTime() - startOfDay(date).getTime()) / DAY_MS);
  if (daysAgo <= 1) return timeFormat.format(date);
  if (daysAgo <= 6) return weekdayFormat.format(date);
  return dateFormat.format(date);
}

/** Spec §2: the default badge style when active, destructive when busy, outline otherwise. */
export function availabilityVariant(status: MemberStatus): 'default' | 'destructive' | 'outline' {
  if (status === 'active') return 'default';
  if (status === 'busy') return 'destructive';
  return 'outline';
}

export function initialsOfName(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return (
    parts
      .slice(0, 2)
      .map((part) => part[0]?.toUpperCase() ?? '')
      .join('') || 'U'
  );
}

const sample = (member: Omit<TeamMember, 'isSample' | 'isYou'>): TeamMember => ({ ...member, isSample: true, isYou: false });

export const SAMPLE_MEMBERS: readonly TeamMember[] = [
  sample({
    id: 'sample-1',
    name: 'Sarah Johnson',
    role: 'Product Manager',
    email: 'sarah.johnson@example.com',
    availability: 'Available',
    status: 'active',
    meetingsRecorded: 24,
    meetingsAttended: 38,
    lastActive: '5 minutes ago',
  }),
  sample({
    id: 'sample-2',
    name: 'Michael Chen',
    role: 'Engineering Lead',
    email: 'michael.chen@example.com',
    availability: 'In a meeting',
    status: 'busy',
    meetingsRecorded: 18,
    meetingsAttended: 42,
    lastActive: 'Now',
  }),
  sample({
    id: 'sample-3',
    name: 'Emily Rodriguez',
    role: 'UX Designer',
    email: 'emily.rodriguez@example.com',
    availability: 'Away',
    status: 'away',
    meetingsRecorded: 9,
    meetingsAttended: 27,
    lastActive: '3 hours ago',
  }),
  sample({
    id: 'sample-4',
    name: 'David Kim',
    role: 'Sales Director',
    email: 'david.kim@example.com',
    availability: 'Available',
    status: 'active',
    meetingsRecorded: 31,
    meetingsAttended: 45,
    lastActive: '20 minutes ago',
  }),
  sample({
    id: 'sample-5',
    name: 'Lisa Thompson',
    role: 'Marketing Manager',
    email: 'lisa.thompson@example.com',
    availability: 'In a meeting',
    status: 'busy',
    meetingsRecorded: 12,
    meetingsAttended: 30,
    lastActive: '1 hour ago',
  }),
];

export const SAMPLE_ACTIVITY: readonly ActivityGroupOf<ActivityLine>[] = [
  {
    label: 'Today',
    entries: [
      { id: 'a1', member: 'Sarah Johnson', action: 'recorded a new meeting', subject: 'Product Roadmap Review', time: '10:24 AM' },
      { id: 'a2', member: 'Michael Chen', action: 'downloaded transcripts from', subject: 'Sprint Planning', time: '9:02 AM' },
    ],
  },
  {
    label: 'Yesterday',
    entries: [
      { id: 'a3', member: 'Emily Rodriguez', action: 'shared AI insights from', subject: 'User Research Debrief', time: '4:45 PM' },
      { id: 'a4', member: 'David Kim', action: 'invited Lisa Thompson to the team', time: '11:10 AM' },
    ],
  },
  {
    label: 'Last Week',
    entries: [
      { id: 'a5', member: 'Lisa Thompson', action: 'analyzed sentiment trends for', subject: 'Q3 Campaign Sync', time: 'Thursday' },
      { id: 'a6', member: 'Sarah Johnson', action: 'recorded a new meeting', subject: 'Customer Feedback Session', time: 'Tuesday' },
    ],
  },
];

/** A count, or a dash while it is not known yet. */
export const formatCount = (count: number | null): string => (count === null ? '—' : String(count));
