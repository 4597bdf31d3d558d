import type { teamEndpoints } from '#shared/contracts/teams.ts';
import type { ExamplesOf } from './example-types.ts';
import { ids, LINK_TOKEN, MEETING_TITLE } from './fixtures.ts';

const team = { id: ids.team, name: 'Customer Success', role: 'owner', memberCount: 6, createdAt: '2026-10-01T09:00:00.000Z' } as const;

const member = {
  userId: ids.tomasz,
  name: 'Tomasz Nowak',
  email: 'tomasz@example.com',
  avatarUrl: `/api/v1/avatars/${ids.tomasz}?v=1764000000`,
  role: 'member',
  availability: 'busy',
  status: 'In a meeting',
  lastActiveAt: '2026-12-07T15:28:00.000Z',
  joinedAt: '2026-10-02T11:15:00.000Z',
  meetingsRecorded: 12,
  meetingsAttended: 31,
} as const;

const invitation = {
  id: ids.invitation,
  email: 'priya@example.com',
  emailStatus: 'sent',
  emailError: null,
  role: 'member',
  invitedBy: { id: ids.maya, name: 'Maya Chen' },
  createdAt: '2026-12-07T15:05:00.000Z',
  expiresAt: '2026-12-14T15:05:00.000Z',
} as const;

export const teamExamples: ExamplesOf<typeof teamEndpoints> = {
  list: { response: { items: [team] } },
  create: { body: { name: 'Customer Success' }, response: { ...team, memberCount: 1 } },
  rename: { body: { name: 'Customer Success EMEA' }, response: { ...team, name: 'Customer Success EMEA' } },
  remove: { response: { ok: true } },
  members: { response: { items: [member] } },
  updateMember: { body: { role: 'admin' }, response: { ...member, role: 'admin' } },
  removeMember: { response: { ok: true } },
  activity: {
    response: {
      items: [
        {
          id: ids.activity,
          kind: 'meeting_shared',
          actor: { id: ids.maya, name: 'Maya Chen' },
          at: '2026-12-07T14:35:00.000Z',
          meeting: { id: ids.meeting, title: MEETING_TITLE },
          subject: null,
        },
      ],
    },
  },
  heartbeat: { response: { ok: true } },
  invitations: { response: { items: [invitation] } },
  invite: {
    body: { email: 'priya@example.com', role: 'member' },
    response: { ...invitation, emailStatus: 'sending', token: LINK_TOKEN, url: `https://parley.example.com/invite/${LINK_TOKEN}`, emailed: true },
  },
  revokeInvitation: { response: { ok: true } },
  previewInvitation: {
    response: { teamName: 'Customer Success', invitedBy: 'Maya Chen', role: 'member', expiresAt: '2026-12-14T15:05:00.000Z', email: 'priya@example.com' },
  },
  acceptInvitation: { response: { team: { ...team, role: 'member', memberCount: 7 } } },
};
