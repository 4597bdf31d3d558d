/**
 * The /team screen's data (spec §3 "Team member"). Parley has no team workspaces yet, so apart from
 * the signed-in person every member and every activity entry is sample data, marked as such.
 */

export type MemberStatus = 'active' | 'busy' | 'away';
export type Availability = 'Available' | 'In a meeting' | 'Away';

export type TeamMember = {
  id: string;
  name: string;
  /** An image address; none of the sample members has one, so their initials show. */
  avatar?: string;
  role: string;
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

export type ActivityEntry = { id: string; member: string; action: string; subject?: string; time: string };
export type ActivityGroup = { label: 'Today' | 'Yesterday' | 'Last Week'; entries: ActivityEntry[] };

export const SAMPLE_ACTIVITY: readonly ActivityGroup[] = [
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
