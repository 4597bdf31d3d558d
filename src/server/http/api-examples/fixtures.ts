import type { z } from 'zod/mini';
import type { MeetingRefSchema } from '#shared/contracts/insights.ts';
import type { MeetingDetailSchema, MeetingSummarySchema } from '#shared/contracts/meetings.ts';
import type { InsightSchema, NotesStateSchema } from '#shared/contracts/notes.ts';

/** One made-up meeting and the people in it, shared by the examples so they tell one story. */
export const ids = {
  meeting: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  earlierMeeting: 'a9849c47-4c95-4d1c-a2d3-36f83c98ca4d',
  maya: '6b54ba2b-439a-48ef-921a-4c7e893a3e83',
  tomasz: '0b967a47-cdba-4a7f-a48c-1d5be5bf635f',
  team: '73e65049-1bde-42f5-b21d-724fac2a2ffb',
  speakerMaya: 'f4431c70-4bbf-4937-b33c-0c3b7e0c6e08',
  speakerTomasz: '891a31fb-fd2b-48e0-a593-48b6653ce0e0',
  segment1: 'c56a4180-65aa-42ec-a945-5fd21dec0538',
  segment2: '9a249e3e-831b-41ce-b8ac-d41bb6192c7c',
  segment3: '2b3d21f7-86a7-43d9-bb8b-820537302995',
  correction: '4a7594db-a414-45ae-bdcd-a82a9626618e',
  actionItem: '6d02c6be-752a-46af-97ef-f949cd42a25d',
  decision: '09624121-2ffb-432c-9870-7ca4f0418fa8',
  earlierDecision: 'df9442f6-c5d4-4ba6-87b5-3b692aeecdb7',
  keyPoint: '79c6e338-631d-4dee-9244-a8eac2f52172',
  topic: '2eaeedac-f78f-4279-891e-b4a38b51699e',
  mention: '2f6365e9-1dda-4c23-a58f-f781136b20d2',
  decisionLink: 'f6b13b1b-1fef-49d5-aec3-dd39a14872e1',
  shareLink: '702348d1-6683-4568-9fd8-b2f47b1e4f53',
  invitation: '6efdfe95-e13b-4e11-ab1b-aa36edcc4a3c',
  activity: '86e01a54-3720-4211-b1bd-1fa4268cdf47',
  notification: '8fd3ea4a-9b1a-421c-80ce-6066d1d416a4',
  dataExport: '3276dfac-1381-4f7f-8742-9933c52b5815',
  webhook: '5f1d2c3b-4a59-4e68-8b7c-9d0e1f2a3b4c',
  apiToken: '0b6f3c57-58e4-4d41-9b8a-3f0e6d2c7a11',
  voiceRequest: '141998b4-2e34-49d9-8ad8-06f20c396bad',
  voiceSuggestion: '65572172-9986-4ce8-9b49-92f19c6c4e3b',
} as const;

export const MEETING_TITLE = 'Customer onboarding review';
export const STARTED_AT = '2026-12-07T14:00:00.000Z';
/** A share link's or an invitation's token: 43 URL-safe characters. */
export const LINK_TOKEN = 'pQ3vX8kLm2Rt6Ws9Yz1Bc4Df7Gh0Jn5Ka8Ms2Uv6Xy9';

export const meetingRef: z.input<typeof MeetingRefSchema> = { id: ids.meeting, title: MEETING_TITLE, startedAt: STARTED_AT, isSample: false };
export const earlierMeetingRef: z.input<typeof MeetingRefSchema> = {
  id: ids.earlierMeeting,
  title: 'Customer onboarding kickoff',
  startedAt: '2026-11-30T14:00:00.000Z',
  isSample: false,
};

export const meetingSummary: z.input<typeof MeetingSummarySchema> = {
  id: ids.meeting,
  title: MEETING_TITLE,
  startedAt: STARTED_AT,
  durationSeconds: 1_845,
  status: 'ready',
  source: 'upload',
  participants: ['Maya Chen', 'Tomasz Nowak'],
  summary: 'Maya takes the onboarding checklist; the team moves the launch to 15 January.',
  isSample: false,
  hasAudio: true,
  createdAt: '2026-12-07T14:31:05.000Z',
  processing: null,
  failureReason: null,
  teamId: ids.team,
  owner: { id: ids.maya, name: 'Maya Chen' },
  access: 'owner',
};

export const speakers = [
  { id: ids.speakerMaya, label: 'Speaker 1', displayName: 'Maya Chen' },
  { id: ids.speakerTomasz, label: 'Speaker 2', displayName: 'Tomasz Nowak' },
];

export const segments = [
  {
    id: ids.segment1,
    speakerId: ids.speakerTomasz,
    startMs: 12_400,
    endMs: 17_900,
    text: 'Can we move the launch to the fifteenth of January?',
    confidence: 0.94,
  },
  {
    id: ids.segment2,
    speakerId: ids.speakerMaya,
    startMs: 18_300,
    endMs: 24_100,
    text: 'Yes, let us decide that. It gives Acme time to finish their SSO setup.',
    confidence: 0.91,
    corrections: [{ id: ids.correction, position: 60, original: 'S. S. O.', corrected: 'SSO' }],
  },
  {
    id: ids.segment3,
    speakerId: ids.speakerMaya,
    startMs: 754_000,
    endMs: 760_500,
    text: 'I will take the onboarding checklist and have a draft for everyone by Friday.',
    confidence: 0.96,
  },
];

export const actionItemInsight: z.input<typeof InsightSchema> = {
  id: ids.actionItem,
  kind: 'action_item',
  text: 'Draft the onboarding checklist',
  segmentIds: [ids.segment3],
  startMs: 754_000,
  endMs: null,
  assignee: 'Maya Chen',
  due: '2026-12-11',
  dueText: 'by Friday',
  status: 'open',
  suggested: false,
};

export const insights: z.input<typeof InsightSchema>[] = [
  {
    id: ids.keyPoint,
    kind: 'key_point',
    text: 'Acme needs until January to finish their SSO setup.',
    segmentIds: [ids.segment2],
    startMs: 18_300,
    endMs: null,
    assignee: null,
    due: null,
    dueText: null,
    status: 'open',
    suggested: false,
  },
  actionItemInsight,
  {
    id: ids.decision,
    kind: 'decision',
    text: 'The launch moves to 15 January.',
    segmentIds: [ids.segment1, ids.segment2],
    startMs: 12_400,
    endMs: null,
    assignee: null,
    due: null,
    dueText: null,
    status: 'open',
    suggested: false,
  },
  {
    id: ids.topic,
    kind: 'topic',
    text: 'Launch date',
    segmentIds: [ids.segment1, ids.segment2],
    startMs: 12_400,
    endMs: 24_100,
    assignee: null,
    due: null,
    dueText: null,
    status: 'open',
    suggested: false,
  },
];

export const readyNotes: z.input<typeof NotesStateSchema> = {
  status: 'ready',
  engine: 'llm',
  failureReason: null,
  droppedUncited: 0,
  localFallbackParts: 0,
  progress: null,
  outOfDate: false,
  generatedAt: '2026-12-07T14:33:40.000Z',
};

export const meetingDetail: z.input<typeof MeetingDetailSchema> = {
  ...meetingSummary,
  options: { speakerDetection: true, emotionalAnalysis: true, actionItems: true, summary: true, noiseReduction: true, highQuality: false, autoShare: false },
  audioSources: null,
  failureReason: null,
  speakers,
  segments,
  // A summary a person edited cites nothing; one the notes wrote comes as its sentences with their segments.
  summarySentences: null,
  insights,
  notes: readyNotes,
};
