import type { AnalyticsQuery, AnalyticsResponse, AnalyticsWeek } from '#shared/contracts/insights.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const round1 = (value: number) => Math.round(value * 10) / 10;

/** Monday 00:00 (in the person's zone, expressed as a UTC instant) of the week holding `instant`. */
export function weekStartOf(instant: Date, tzOffsetMinutes: number): Date {
  const local = new Date(instant.getTime() - tzOffsetMinutes * 60_000);
  const daysSinceMonday = (local.getUTCDay() + 6) % 7;
  const mondayLocal = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - daysSinceMonday * DAY_MS;
  return new Date(mondayLocal + tzOffsetMinutes * 60_000);
}

const localDate = (instant: Date, tzOffsetMinutes: number) => new Date(instant.getTime() - tzOffsetMinutes * 60_000).toISOString().slice(0, 10);

/**
 * Meeting time, meeting counts and talk time per week over the last `weeks` weeks (the current week
 * last), every week present even when empty so charts keep their time axis. `activity` answers the
 * person's meetings since a date (the meetings service).
 */
export async function buildAnalytics(
  activity: (since: Date) => Promise<{ startedAt: string; durationSeconds: number; talkMs: number }[]>,
  query: AnalyticsQuery,
  now = new Date(),
): Promise<AnalyticsResponse> {
  const thisWeek = weekStartOf(now, query.tzOffset);
  const first = new Date(thisWeek.getTime() - (query.weeks - 1) * 7 * DAY_MS);
  const weeks: AnalyticsWeek[] = Array.from({ length: query.weeks }, (_, i) => ({
    weekStart: localDate(new Date(first.getTime() + i * 7 * DAY_MS), query.tzOffset),
    meetings: 0,
    meetingMinutes: 0,
    talkMinutes: 0,
  }));

  const meetings = await activity(first);
  for (const meeting of meetings) {
    const index = Math.floor((new Date(meeting.startedAt).getTime() - first.getTime()) / (7 * DAY_MS));
    const week = weeks[index];
    if (!week) continue; // a meeting dated in the future stays out of the chart
    week.meetings += 1;
    week.meetingMinutes += meeting.durationSeconds / 60;
    week.talkMinutes += meeting.talkMs / 60_000;
  }
  for (const week of weeks) {
    week.meetingMinutes = round1(week.meetingMinutes);
    week.talkMinutes = round1(week.talkMinutes);
  }
  const totalMeetings = weeks.reduce((n, w) => n + w.meetings, 0);
  const meetingMinutes = round1(weeks.reduce((n, w) => n + w.meetingMinutes, 0));
  return {
    weeks,
    totals: {
      meetings: totalMeetings,
      meetingMinutes,
      talkMinutes: round1(weeks.reduce((n, w) => n + w.talkMinutes, 0)),
      averageMeetingMinutes: totalMeetings === 0 ? 0 : round1(meetingMinutes / totalMeetings),
    },
  };
}
