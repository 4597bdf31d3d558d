import crypto from 'node:crypto';
import { DEFAULT_RECORDING_OPTIONS, type MeetingDetail } from '#shared/contracts/meetings.ts';
import type { Db } from '#server/db/create-db.ts';
import { createMeeting, replaceTranscript, type TranscriptInput } from './meetings.repository.ts';

/**
 * The sample content every new account starts with (spec: dashboard, history and insights show
 * sample meetings), stored as real meetings badged "Sample" that the person can remove at once.
 */
type SampleMeeting = {
  title: string;
  daysAgo: number;
  hour: number;
  durationSeconds: number;
  participants: string[];
  summary: string;
  transcript: TranscriptInput;
};

const line = (speaker: number, startSeconds: number, seconds: number, text: string) => ({
  speaker,
  startMs: startSeconds * 1000,
  endMs: (startSeconds + seconds) * 1000,
  text,
  confidence: 0.94,
});

const speakers = (...names: string[]) => names.map((name, i) => ({ label: `Speaker ${i + 1}`, displayName: name }));

export const SAMPLE_MEETINGS: SampleMeeting[] = [
  {
    title: 'Weekly Team Standup',
    daysAgo: 1,
    hour: 9,
    durationSeconds: 32 * 60,
    participants: ['Alex Johnson', 'Sarah Miller', 'David Chen', 'Emma Wilson'],
    summary: 'Sprint progress review: the onboarding flow ships Friday, the API migration is blocked on credentials, and QA needs two more days for regression tests.',
    transcript: {
      speakers: speakers('Alex Johnson', 'Sarah Miller', 'David Chen', 'Emma Wilson'),
      segments: [
        line(0, 0, 9, "Good morning everyone. Let's go around quickly: what shipped, what's next, and anything blocking."),
        line(1, 10, 12, 'The new onboarding flow is feature complete. I am polishing the empty states and it should ship on Friday.'),
        line(2, 23, 11, "The API migration is blocked. We still don't have the production credentials for the new gateway."),
        line(0, 35, 6, "I'll chase that with the platform team today."),
        line(3, 42, 12, 'QA needs two more days for the regression suite, mostly the billing screens.'),
        line(0, 55, 8, 'Great. So onboarding Friday, regression by Wednesday, and I unblock the credentials. Thanks all.'),
      ],
      insights: [
        { kind: 'key_point', text: 'The onboarding flow is feature complete and ships on Friday.', segment: 1 },
        { kind: 'action_item', text: 'Get production credentials for the new API gateway', assignee: 'Platform Team', due: 'Today', segment: 3 },
        { kind: 'action_item', text: 'Finish the regression suite for the billing screens', assignee: 'QA Team', due: 'Wednesday', segment: 4 },
        { kind: 'decision', text: 'Release the onboarding flow on Friday.', segment: 5 },
        { kind: 'topic', text: 'Sprint progress' },
        { kind: 'topic', text: 'API migration' },
      ],
    },
  },
  {
    title: 'Product Roadmap Review',
    daysAgo: 2,
    hour: 14,
    durationSeconds: 58 * 60,
    participants: ['Sarah Miller', 'Michael Brown', 'Lisa Park'],
    summary: 'Q3 priorities agreed: mobile app first, then the integrations marketplace. Analytics dashboards move to Q4. Customer interviews start next week.',
    transcript: {
      speakers: speakers('Sarah Miller', 'Michael Brown', 'Lisa Park'),
      segments: [
        line(0, 0, 10, 'The goal today is to agree on the Q3 priorities. We have more ideas than capacity, so we need to cut.'),
        line(1, 11, 12, 'Customers keep asking for the mobile app. It comes up in almost every sales call.'),
        line(2, 24, 12, 'The integrations marketplace is the other big one. Three enterprise deals depend on it.'),
        line(0, 37, 10, 'Then mobile first, marketplace second, and the analytics dashboards move to Q4.'),
        line(1, 48, 9, "Agreed. I'd like to validate the mobile scope with five customer interviews first."),
        line(2, 58, 7, 'I can set those up for next week.'),
      ],
      insights: [
        { kind: 'decision', text: 'Q3 priorities: the mobile app first, then the integrations marketplace.', segment: 3 },
        { kind: 'decision', text: 'The analytics dashboards move to Q4.', segment: 3 },
        { kind: 'action_item', text: 'Schedule five customer interviews about the mobile scope', assignee: 'Product Team', due: 'Next week', segment: 5 },
        { kind: 'key_point', text: 'Three enterprise deals depend on the integrations marketplace.', segment: 2 },
        { kind: 'topic', text: 'Roadmap' },
        { kind: 'topic', text: 'Mobile app' },
      ],
    },
  },
  {
    title: 'Client Onboarding: Acme Corp',
    daysAgo: 4,
    hour: 11,
    durationSeconds: 45 * 60,
    participants: ['Emma Wilson', 'James Taylor', 'Acme: Rachel Green'],
    summary: 'Kick-off with Acme: single sign-on and data import are the first milestones; a weekly check-in is set for Tuesdays; Acme sends the user list by Friday.',
    transcript: {
      speakers: speakers('Emma Wilson', 'James Taylor', 'Rachel Green'),
      segments: [
        line(0, 0, 9, 'Welcome Rachel, and thanks for choosing us. Let us walk through the first thirty days.'),
        line(2, 10, 10, 'Our priority is single sign-on. Our security team will not roll anything out without it.'),
        line(1, 21, 11, 'Single sign-on takes about a week. In parallel we can import your existing data.'),
        line(2, 33, 8, "Great. I'll send you the user list by Friday."),
        line(0, 42, 8, "Let's keep a weekly check-in on Tuesdays until go-live."),
      ],
      insights: [
        { kind: 'action_item', text: 'Send the user list for the import', assignee: 'Acme', due: 'Friday', segment: 3 },
        { kind: 'action_item', text: 'Configure single sign-on for Acme', assignee: 'Customer Success Team', due: 'Next week', segment: 2 },
        { kind: 'decision', text: 'Weekly check-ins on Tuesdays until go-live.', segment: 4 },
        { kind: 'topic', text: 'Customer onboarding' },
      ],
    },
  },
  {
    title: 'Design Critique: Mobile App',
    daysAgo: 6,
    hour: 15,
    durationSeconds: 40 * 60,
    participants: ['Lisa Park', 'David Chen', 'Olivia Martinez'],
    summary: 'Navigation moves to a bottom bar, the recording button gets more prominence, and dark mode needs a contrast pass before the next review.',
    transcript: {
      speakers: speakers('Olivia Martinez', 'Lisa Park', 'David Chen'),
      segments: [
        line(0, 0, 9, "These are the new mobile screens. The main change is the navigation, it's now a bottom bar."),
        line(1, 10, 9, 'I like it. The record button should be bigger though, it is the main action.'),
        line(2, 20, 9, 'Dark mode has a few contrast problems, the grey text on the cards is hard to read.'),
        line(0, 30, 7, "Fair. I'll do a contrast pass and bring it back next week."),
      ],
      insights: [
        { kind: 'decision', text: 'Navigation moves to a bottom bar on mobile.', segment: 0 },
        { kind: 'action_item', text: 'Contrast pass on dark mode', assignee: 'Design Team', due: 'Next review', segment: 3 },
        { kind: 'key_point', text: 'The record button should be the most prominent action.', segment: 1 },
        { kind: 'topic', text: 'Design' },
        { kind: 'topic', text: 'Mobile app' },
      ],
    },
  },
  {
    title: 'Quarterly Sales Review',
    daysAgo: 8,
    hour: 10,
    durationSeconds: 52 * 60,
    participants: ['Michael Brown', 'James Taylor', 'Sophia Lee', 'Daniel Kim'],
    summary: 'Revenue is 12% above target, driven by enterprise; churn in small teams is up slightly; a win-back campaign and a pricing review were agreed.',
    transcript: {
      speakers: speakers('Michael Brown', 'Sophia Lee', 'Daniel Kim', 'James Taylor'),
      segments: [
        line(0, 0, 8, 'Good news first: we closed the quarter twelve percent above target.'),
        line(1, 9, 10, 'Most of that came from enterprise. Three of the five biggest deals closed in the last month.'),
        line(2, 20, 9, 'The worrying part is churn in small teams, it went up slightly for the second quarter in a row.'),
        line(3, 30, 9, 'We should run a win-back campaign and look at the pricing of the small plans.'),
        line(0, 40, 6, "Let's do both. Sophia, can you own the campaign?"),
      ],
      insights: [
        { kind: 'key_point', text: 'Revenue closed 12% above target, driven by enterprise deals.', segment: 0 },
        { kind: 'key_point', text: 'Churn in small teams rose for the second quarter in a row.', segment: 2 },
        { kind: 'action_item', text: 'Run a win-back campaign for churned small teams', assignee: 'Marketing Team', due: 'End of month', segment: 4 },
        { kind: 'action_item', text: 'Review the pricing of the small-team plans', assignee: 'Sales Team', due: 'Next quarter', segment: 3 },
        { kind: 'topic', text: 'Sales' },
        { kind: 'topic', text: 'Churn' },
      ],
    },
  },
  {
    title: 'Engineering Retrospective',
    daysAgo: 10,
    hour: 16,
    durationSeconds: 35 * 60,
    participants: ['David Chen', 'Alex Johnson', 'Noah Davis'],
    summary: 'Deploys got faster after the CI changes; flaky tests remain the top complaint; the team agreed on a fix-it day every second Friday.',
    transcript: {
      speakers: speakers('Alex Johnson', 'David Chen', 'Noah Davis'),
      segments: [
        line(0, 0, 7, 'What went well this sprint, and what should we change?'),
        line(1, 8, 9, 'Deploys are much faster since the CI changes, about eight minutes instead of twenty.'),
        line(2, 18, 9, 'Flaky tests are still the biggest pain. I reran the pipeline four times on Tuesday.'),
        line(0, 28, 8, "Let's take a fix-it day every second Friday for flaky tests and tooling."),
      ],
      insights: [
        { kind: 'key_point', text: 'Deploys take about eight minutes instead of twenty after the CI changes.', segment: 1 },
        { kind: 'decision', text: 'A fix-it day every second Friday for flaky tests and tooling.', segment: 3 },
        { kind: 'action_item', text: 'List the ten flakiest tests before the first fix-it day', assignee: 'Engineering Team', due: 'Friday', segment: 2 },
        { kind: 'topic', text: 'Engineering process' },
      ],
    },
  },
];

/** Gives a new account its sample meetings, dated relative to now. */
export async function seedSampleMeetings(db: Db, ownerId: string, now = new Date()): Promise<void> {
  for (const sample of SAMPLE_MEETINGS) {
    const started = new Date(now);
    started.setUTCDate(started.getUTCDate() - sample.daysAgo);
    started.setUTCHours(sample.hour, 0, 0, 0);
    const id = await createMeeting(db, {
      ownerId,
      title: sample.title,
      source: 'sample',
      status: 'ready',
      options: {},
      participants: sample.participants,
      startedAt: started.toISOString(),
      durationSeconds: sample.durationSeconds,
      summary: sample.summary,
      isSample: true,
    });
    await replaceTranscript(db, id, sample.transcript);
  }
}

/** A deterministic id per sample position, so the public demo's ids are stable across requests. */
function demoId(kind: string, index: number): string {
  const hex = crypto.createHash('sha256').update(`parley-demo:${kind}:${index}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The first sample meeting as a read-only meeting, for the public /demo tour (nothing stored). */
export function demoMeeting(now = new Date()): MeetingDetail {
  const sample = SAMPLE_MEETINGS[0]!;
  const started = new Date(now);
  started.setUTCDate(started.getUTCDate() - sample.daysAgo);
  started.setUTCHours(sample.hour, 0, 0, 0);
  const speakers = sample.transcript.speakers.map((s, i) => ({ id: demoId('speaker', i), label: s.label, displayName: s.displayName ?? null }));
  const segments = sample.transcript.segments.map((s, i) => ({
    id: demoId('segment', i),
    speakerId: s.speaker === null ? null : (speakers[s.speaker]?.id ?? null),
    startMs: s.startMs,
    endMs: s.endMs,
    text: s.text,
    confidence: s.confidence ?? null,
  }));
  return {
    id: demoId('meeting', 0),
    title: sample.title,
    startedAt: started.toISOString(),
    durationSeconds: sample.durationSeconds,
    status: 'ready',
    source: 'sample',
    participants: sample.participants,
    summary: sample.summary,
    isSample: true,
    hasAudio: false,
    createdAt: started.toISOString(),
    options: DEFAULT_RECORDING_OPTIONS,
    failureReason: null,
    speakers,
    segments,
    insights: (sample.transcript.insights ?? []).map((insight, i) => ({
      id: demoId('insight', i),
      kind: insight.kind,
      text: insight.text,
      assignee: insight.assignee ?? null,
      due: insight.due ?? null,
      segmentId: insight.segment === undefined || insight.segment === null ? null : (segments[insight.segment]?.id ?? null),
    })),
  };
}
