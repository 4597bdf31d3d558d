import type { askEndpoints } from '#shared/contracts/ask.ts';
import type { insightsEndpoints } from '#shared/contracts/insights.ts';
import type { z } from 'zod/mini';
import type { MeetingDetailSchema, meetingEndpoints } from '#shared/contracts/meetings.ts';
import type { notesEndpoints } from '#shared/contracts/notes.ts';
import type { shareEndpoints } from '#shared/contracts/sharing.ts';
import type { trackerEndpoints } from '#shared/contracts/tracker.ts';
import type { voiceProfileEndpoints } from '#shared/contracts/voice-profiles.ts';
import type { ExamplesOf } from './example-types.ts';
import {
  actionItemInsight,
  earlierMeetingRef,
  ids,
  insights,
  LINK_TOKEN,
  MEETING_TITLE,
  meetingDetail,
  meetingRef,
  meetingSummary,
  readyNotes,
  segments,
  speakers,
  STARTED_AT,
} from './fixtures.ts';

const processingMeeting: z.input<typeof MeetingDetailSchema> = {
  ...meetingDetail,
  status: 'processing',
  summary: null,
  processing: { stage: 'transcribing', progress: 0.42 },
  speakers: [],
  segments: [],
  insights: [],
  notes: { ...readyNotes, status: 'queued', engine: null, generatedAt: null },
};

const { teamId: _teamId, owner: _owner, access: _access, ...publicMeeting } = meetingDetail;

export const meetingExamples: ExamplesOf<typeof meetingEndpoints> = {
  list: {
    response: {
      items: [
        {
          ...meetingSummary,
          matches: [
            {
              kind: 'transcript',
              segmentId: ids.segment3,
              speaker: 'Maya Chen',
              startMs: 754_000,
              snippet: [
                { text: 'I will take the ', match: false },
                { text: 'onboarding', match: true },
                { text: ' checklist and have a draft for everyone by Friday.', match: false },
              ],
            },
          ],
        },
      ],
      total: 1,
      page: 1,
      pageSize: 12,
    },
  },
  create: {
    body: { title: 'Weekly product sync', source: 'mic', participants: ['Maya Chen', 'Tomasz Nowak'], options: { emotionalAnalysis: false } },
    response: {
      ...processingMeeting,
      title: 'Weekly product sync',
      status: 'recording',
      source: 'mic',
      durationSeconds: 0,
      hasAudio: false,
      processing: null,
      teamId: null,
      options: { ...meetingDetail.options, emotionalAnalysis: false },
    },
  },
  stats: {
    response: {
      meetings: 42,
      meetingsTranscribed: 40,
      hoursRecorded: 31.5,
      sampleMeetings: 0,
      samplesSettingUp: false,
      storageBytes: 1_288_490_188,
      storagePercent: 12,
      insights: { keyPoints: 214, actionItems: 97, decisions: 38, topics: 120 },
    },
  },
  removeSamples: { response: { deleted: 3 } },
  import: {
    body: {
      fileName: 'onboarding-review.vtt',
      content: 'WEBVTT\n\n00:00:12.400 --> 00:00:17.900\n<v Tomasz Nowak>Can we move the launch to the fifteenth of January?\n',
      title: MEETING_TITLE,
      startedAt: STARTED_AT,
    },
    response: {
      ...meetingDetail,
      source: 'import',
      hasAudio: false,
      teamId: null,
      insights: [],
      notes: { ...readyNotes, status: 'queued', engine: null, generatedAt: null },
    },
  },
  get: { response: meetingDetail },
  update: { body: { title: MEETING_TITLE, teamId: ids.team }, response: meetingDetail },
  updateSegment: { body: { text: 'Can we move the launch to the fifteenth of January?' }, response: meetingDetail },
  renameSpeaker: { body: { displayName: 'Tomasz Nowak' }, response: meetingDetail },
  mergeSpeaker: { body: { intoSpeakerId: ids.speakerMaya }, response: meetingDetail },
  assignSegments: { body: { segmentIds: [ids.segment2, ids.segment3], speakerId: ids.speakerMaya }, response: meetingDetail },
  restoreSegmentSpeakers: {
    body: { lines: [{ segmentId: ids.segment2, speakerId: ids.speakerTomasz }], removeSpeakerId: ids.speakerMaya },
    response: meetingDetail,
  },
  splitSegment: { body: { at: 31 }, response: meetingDetail },
  undoCorrection: { response: meetingDetail },
  joinSegments: { body: { nextSegmentId: ids.segment2 }, response: meetingDetail },
  speakerNames: { response: { names: ['Maya Chen', 'Tomasz Nowak', 'Priya Raman'] } },
  search: {
    response: {
      matches: [
        {
          kind: 'transcript',
          segmentId: ids.segment1,
          speaker: 'Tomasz Nowak',
          startMs: 12_400,
          snippet: [
            { text: 'Can we move the ', match: false },
            { text: 'launch', match: true },
            { text: ' to the fifteenth of January?', match: false },
          ],
        },
      ],
    },
  },
  remove: { response: { deleted: 1 } },
  retry: { response: { status: 'processing' } },
  audio: {},
  audioLink: {
    response: {
      url: `/api/v1/meetings/${ids.meeting}/audio/stream?token=eyJtIjoiN2M5ZTY2NzkiLCJlIjoxNzY1MTE2MDAwfQ.k7Qp2xVb`,
      expiresAt: '2026-12-07T15:10:00.000Z',
    },
  },
  audioStream: {},
  audioPeaks: { response: { peaks: [0.02, 0.31, 0.58, 0.44, 0.12, 0.67, 0.5, 0.08], durationSeconds: 1_845.3 } },
  audioDownload: {},
  export: {},
  // The public tour's meeting names no owner, team or access.
  demo: { response: { ...publicMeeting, isSample: true } },
};

const notesResponse = { summary: meetingSummary.summary, summarySentences: null, insights, notes: readyNotes };

export const notesExamples: ExamplesOf<typeof notesEndpoints> = {
  regenerate: { response: { ...notesResponse, notes: { ...readyNotes, status: 'running', progress: { part: 1, parts: 2 } } } },
  updateItem: { body: { assignee: 'Tomasz Nowak', due: '2026-12-14' }, response: notesResponse },
};

export const shareExamples: ExamplesOf<typeof shareEndpoints> = {
  create: {
    response: { id: ids.shareLink, createdAt: '2026-12-07T15:02:11.000Z', url: `https://parley.example.com/shared/${LINK_TOKEN}`, token: LINK_TOKEN },
  },
  list: { response: { items: [{ id: ids.shareLink, createdAt: '2026-12-07T15:02:11.000Z' }] } },
  revoke: { response: { revoked: true } },
  shared: {
    response: {
      title: MEETING_TITLE,
      startedAt: STARTED_AT,
      durationSeconds: 1_845,
      participants: ['Maya Chen', 'Tomasz Nowak'],
      summary: meetingSummary.summary,
      summarySentences: null,
      speakers,
      segments,
      insights,
      notes: { status: 'ready' },
    },
  },
};

export const askExamples: ExamplesOf<typeof askEndpoints> = {
  ask: {
    body: { question: 'Who owns the onboarding checklist?' },
    response: {
      mode: 'llm',
      answer: 'Maya owns the onboarding checklist and will share a draft by Friday.',
      sentences: [{ text: 'Maya owns the onboarding checklist and will share a draft by Friday.', citations: [0] }],
      citations: [
        {
          meetingId: ids.meeting,
          segmentId: ids.segment3,
          startMs: 754_000,
          meetingTitle: MEETING_TITLE,
          speaker: 'Maya Chen',
          text: 'I will take the onboarding checklist and have a draft for everyone by Friday.',
        },
      ],
      notice: null,
    },
  },
  stream: { body: { question: 'What did we decide about the launch date?', meetingId: ids.meeting } },
};

const turns = { positive: 14, neutral: 31, negative: 3 };

export const insightsExamples: ExamplesOf<typeof insightsEndpoints> = {
  insights: {
    response: {
      meetings: 42,
      topics: [{ name: 'Launch date', meetings: 5, lastDiscussed: meetingRef }],
      sentiment: {
        analysedMeetings: 40,
        overall: { positive: 212, neutral: 640, negative: 48 },
        byMeeting: [{ meeting: meetingRef, score: 0.23, turns }],
        bySpeaker: [{ speaker: 'Maya Chen', score: 0.31, turns }],
      },
      participation: {
        totalTalkSeconds: 1_790,
        speakers: [
          { speaker: 'Maya Chen', talkSeconds: 1_020, share: 0.57, turns: 26, meetings: 1 },
          { speaker: 'Tomasz Nowak', talkSeconds: 770, share: 0.43, turns: 22, meetings: 1 },
        ],
      },
      actionItems: [
        {
          id: ids.actionItem,
          text: actionItemInsight.text,
          assignee: 'Maya Chen',
          due: '2026-12-11',
          dueText: 'by Friday',
          status: 'open',
          startMs: 754_000,
          meeting: meetingRef,
        },
      ],
    },
  },
  analytics: {
    response: {
      weeks: [
        { weekStart: '2026-11-23', meetings: 6, meetingMinutes: 240, talkMinutes: 205.5 },
        { weekStart: '2026-11-30', meetings: 8, meetingMinutes: 310, talkMinutes: 268 },
      ],
      totals: { meetings: 14, meetingMinutes: 550, talkMinutes: 473.5, averageMeetingMinutes: 39.3 },
    },
  },
};

const trackedItem = {
  id: ids.actionItem,
  text: actionItemInsight.text,
  assignee: 'Maya Chen',
  due: '2026-12-11',
  dueText: 'by Friday',
  status: 'open',
  startMs: 754_000,
  meeting: earlierMeetingRef,
  segmentIds: [ids.segment3],
  overdue: false,
  mentions: [
    {
      id: ids.mention,
      meeting: meetingRef,
      segmentId: ids.segment3,
      startMs: 754_000,
      text: 'The onboarding checklist draft is nearly there.',
      resolution: null,
    },
  ],
} as const;

const decision = {
  id: ids.decision,
  text: 'The launch moves to 15 January.',
  meeting: meetingRef,
  startMs: 12_400,
  segmentIds: [ids.segment1, ids.segment2],
  supersedes: [],
  supersededBy: [],
  suggestedSupersedes: [
    { linkId: ids.decisionLink, decision: { id: ids.earlierDecision, text: 'We launch on 8 December.', meeting: earlierMeetingRef, startMs: 301_000 } },
  ],
};

export const trackerExamples: ExamplesOf<typeof trackerEndpoints> = {
  actionItems: {
    response: {
      items: [{ ...trackedItem, mentions: [...trackedItem.mentions], segmentIds: [...trackedItem.segmentIds] }],
      total: 1,
      page: 1,
      pageSize: 25,
      counts: { open: 1, done: 4, dismissed: 0, overdue: 0 },
      assignees: ['Maya Chen', 'Tomasz Nowak'],
      meetings: [earlierMeetingRef, meetingRef],
    },
  },
  answerMention: {
    body: { resolution: 'done' },
    response: { ...trackedItem, status: 'done', segmentIds: [...trackedItem.segmentIds], mentions: [{ ...trackedItem.mentions[0], resolution: 'done' }] },
  },
  decisions: { response: { items: [decision], total: 1, page: 1, pageSize: 25 } },
  answerDecisionLink: {
    body: { status: 'confirmed' },
    response: { ...decision, suggestedSupersedes: [], supersedes: decision.suggestedSupersedes },
  },
};

const myVoice = {
  profile: {
    createdAt: '2026-11-30T15:10:00.000Z',
    updatedAt: '2026-12-07T14:40:00.000Z',
    team: { id: ids.team, name: 'Customer Success' },
    sources: [
      {
        meetingId: ids.earlierMeeting,
        meetingTitle: 'Customer onboarding kickoff',
        via: 'enrolment',
        addedAt: '2026-11-30T15:10:00.000Z',
        canOpen: true,
        state: 'current',
      },
      { meetingId: ids.meeting, meetingTitle: MEETING_TITLE, via: 'suggestion', addedAt: '2026-12-07T14:40:00.000Z', canOpen: true, state: 'current' },
    ],
    paths: ['sherpa-onnx'],
  },
  requests: [
    {
      id: ids.voiceRequest,
      requestedBy: { id: ids.tomasz, name: 'Tomasz Nowak' },
      meetingTitle: 'Quarterly planning',
      team: { id: ids.team, name: 'Customer Success' },
      createdAt: '2026-12-06T09:12:00.000Z',
    },
  ],
  path: { kind: 'sherpa-onnx', model: '3dspeaker-eres2net-base', reason: null },
} as const;

const voiceResponse = {
  ...myVoice,
  profile: { ...myVoice.profile, sources: [...myVoice.profile.sources], paths: [...myVoice.profile.paths] },
  requests: [...myVoice.requests],
  learning: [],
};

export const voiceProfileExamples: ExamplesOf<typeof voiceProfileEndpoints> = {
  enrol: { body: { who: 'teammate', userId: ids.tomasz }, response: { outcome: 'asked', displayName: 'Tomasz Nowak' } },
  mine: { response: voiceResponse },
  update: { body: { teamId: ids.team }, response: voiceResponse },
  remove: { response: { ...voiceResponse, profile: null } },
  answerRequest: {
    body: { accept: true, teamId: ids.team },
    response: {
      ...voiceResponse,
      requests: [],
      learning: [
        { id: ids.voiceRequest, meetingId: ids.meeting, meetingTitle: 'Quarterly planning', status: 'pending', error: null, since: '2026-12-07T14:41:00.000Z' },
      ],
    },
  },
  suggestions: {
    response: { suggestions: [{ id: ids.voiceSuggestion, speakerId: ids.speakerTomasz, person: { id: ids.tomasz, name: 'Tomasz Nowak' } }], learning: [] },
  },
  answerSuggestion: {
    body: { accept: true },
    response: {
      suggestions: [],
      learning: [{ id: ids.voiceSuggestion, speakerId: ids.speakerTomasz, person: { id: ids.tomasz, name: 'Tomasz Nowak' }, status: 'pending', error: null }],
    },
  },
};
