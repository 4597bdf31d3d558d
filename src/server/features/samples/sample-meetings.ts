import type { InsightKind } from '#shared/contracts/notes.ts';
import type { TranscriptInput } from '../meetings/meetings.service.ts';

/**
 * The sample content every new account starts with (spec: dashboard, history and insights show
 * sample meetings): six meetings with transcripts and notes, stored as real meetings badged
 * "Sample" that the person can remove at once.
 */
export type SampleNote = {
  kind: InsightKind;
  text: string;
  /** The line it was said in (a topic: the first line of its span). */
  segment: number;
  /** Topics: the last line of the span. */
  through?: number;
  assignee?: string;
  /** Action items: the words of the due date ("Wednesday"), read on the meeting's calendar when stored. */
  dueText?: string;
};

export type SampleMeeting = {
  title: string;
  daysAgo: number;
  hour: number;
  durationSeconds: number;
  participants: string[];
  summary: string;
  transcript: TranscriptInput;
  notes: SampleNote[];
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
    summary:
      'Sprint progress review: the onboarding flow ships Friday, the API migration is blocked on credentials, and QA needs two more days for regression tests.',
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
    },
    notes: [
      { kind: 'key_point', text: 'The onboarding flow is feature complete and ships on Friday.', segment: 1 },
      { kind: 'action_item', text: 'Get production credentials for the new API gateway', assignee: 'Platform Team', dueText: 'Today', segment: 3 },
      { kind: 'action_item', text: 'Finish the regression suite for the billing screens', assignee: 'QA Team', dueText: 'Wednesday', segment: 4 },
      { kind: 'decision', text: 'Release the onboarding flow on Friday.', segment: 5 },
      { kind: 'topic', text: 'Sprint progress', segment: 0, through: 1 },
      { kind: 'topic', text: 'API migration', segment: 2, through: 3 },
      { kind: 'topic', text: 'Regression testing', segment: 4, through: 5 },
    ],
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
    },
    notes: [
      { kind: 'decision', text: 'Q3 priorities: the mobile app first, then the integrations marketplace.', segment: 3 },
      { kind: 'decision', text: 'The analytics dashboards move to Q4.', segment: 3 },
      { kind: 'action_item', text: 'Schedule five customer interviews about the mobile scope', assignee: 'Product Team', dueText: 'Next week', segment: 5 },
      { kind: 'key_point', text: 'Three enterprise deals depend on the integrations marketplace.', segment: 2 },
      { kind: 'topic', text: 'Roadmap', segment: 0, through: 3 },
      { kind: 'topic', text: 'Mobile app', segment: 4, through: 5 },
    ],
  },
  {
    title: 'Client Onboarding: Acme Corp',
    daysAgo: 4,
    hour: 11,
    durationSeconds: 45 * 60,
    participants: ['Emma Wilson', 'James Taylor', 'Rachel Green'],
    summary:
      'Kick-off with Acme: single sign-on and data import are the first milestones; a weekly check-in is set for Tuesdays; Acme sends the user list by Friday.',
    transcript: {
      speakers: speakers('Emma Wilson', 'James Taylor', 'Rachel Green'),
      segments: [
        line(0, 0, 9, 'Welcome Rachel, and thanks for choosing us. Let us walk through the first thirty days.'),
        line(2, 10, 10, 'Our priority is single sign-on. Our security team will not roll anything out without it.'),
        line(1, 21, 11, 'Single sign-on takes about a week. In parallel we can import your existing data.'),
        line(2, 33, 8, "Great. I'll send you the user list by Friday."),
        line(0, 42, 8, "Let's keep a weekly check-in on Tuesdays until go-live."),
      ],
    },
    notes: [
      { kind: 'action_item', text: 'Send the user list for the import', assignee: 'Acme', dueText: 'Friday', segment: 3 },
      { kind: 'action_item', text: 'Configure single sign-on for Acme', assignee: 'Customer Success Team', dueText: 'Next week', segment: 2 },
      { kind: 'decision', text: 'Weekly check-ins on Tuesdays until go-live.', segment: 4 },
      { kind: 'topic', text: 'Customer onboarding', segment: 0, through: 4 },
    ],
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
    },
    notes: [
      { kind: 'decision', text: 'Navigation moves to a bottom bar on mobile.', segment: 0 },
      { kind: 'action_item', text: 'Contrast pass on dark mode', assignee: 'Design Team', dueText: 'Next review', segment: 3 },
      { kind: 'key_point', text: 'The record button should be the most prominent action.', segment: 1 },
      { kind: 'topic', text: 'Mobile app', segment: 0, through: 1 },
      { kind: 'topic', text: 'Design', segment: 2, through: 3 },
    ],
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
    },
    notes: [
      { kind: 'key_point', text: 'Revenue closed 12% above target, driven by enterprise deals.', segment: 0 },
      { kind: 'key_point', text: 'Churn in small teams rose for the second quarter in a row.', segment: 2 },
      { kind: 'action_item', text: 'Run a win-back campaign for churned small teams', assignee: 'Marketing Team', dueText: 'End of month', segment: 4 },
      { kind: 'action_item', text: 'Review the pricing of the small-team plans', assignee: 'Sales Team', dueText: 'Next quarter', segment: 3 },
      { kind: 'topic', text: 'Sales', segment: 0, through: 1 },
      { kind: 'topic', text: 'Churn', segment: 2, through: 4 },
    ],
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
    },
    notes: [
      { kind: 'key_point', text: 'Deploys take about eight minutes instead of twenty after the CI changes.', segment: 1 },
      { kind: 'decision', text: 'A fix-it day every second Friday for flaky tests and tooling.', segment: 3 },
      { kind: 'action_item', text: 'List the ten flakiest tests before the first fix-it day', assignee: 'Engineering Team', dueText: 'Friday', segment: 2 },
      { kind: 'topic', text: 'Engineering process', segment: 0, through: 3 },
    ],
  },
];
