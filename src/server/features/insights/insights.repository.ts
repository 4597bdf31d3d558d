import { sql } from 'kysely';
import { UNNAMED_SPEAKERS, type InsightsResponse, type MeetingSentiment, type Participant, type SentimentMix } from '#shared/contracts/insights.ts';
import type { Db } from '#server/db/create-db.ts';
import { meetingRefOf, SENTIMENT_THRESHOLD, type MeetingViews } from '../meetings/meetings.service.ts';

/**
 * Aggregates for /insights and /analytics over the meetings feature's read views (what the reader may
 * read, decided there): simple sums and counts in SQL, so a million segments never reach Node.
 */

/** How many meetings the sentiment tab charts. Participation and sentiment list every speaker (the page pages them). */
const LIMITS = { sentimentMeetings: 12 } as const;

const num = (value: unknown): number => Number(value ?? 0);
const round = (value: number, places = 3) => Math.round(value * 10 ** places) / 10 ** places;

/** The meeting-side tabs of /insights: how many meetings, sentiment and participation. */
export async function meetingInsightsOf(db: Db, views: MeetingViews): Promise<Pick<InsightsResponse, 'meetings' | 'sentiment' | 'participation'>> {
  const [meetings, sentiment, participation] = await Promise.all([
    db
      .selectFrom(views.meetings.as('m'))
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst(),
    sentimentOf(db, views),
    participationOf(db, views),
  ]);
  return { meetings: num(meetings?.n), sentiment, participation };
}

/** Counts of positive, neutral and negative turns. */
const mixColumns = () =>
  [
    sql<number | string>`sum(case when t.sentiment > ${SENTIMENT_THRESHOLD} then 1 else 0 end)`.as('positive'),
    sql<number | string>`sum(case when t.sentiment < ${-SENTIMENT_THRESHOLD} then 1 else 0 end)`.as('negative'),
    sql<number | string>`count(*)`.as('turns'),
    sql<number | string>`avg(t.sentiment)`.as('score'),
  ] as const;

const mixOf = (row: { positive: unknown; negative: unknown; turns: unknown }): SentimentMix => {
  const positive = num(row.positive);
  const negative = num(row.negative);
  return { positive, negative, neutral: num(row.turns) - positive - negative };
};

async function sentimentOf(db: Db, views: MeetingViews): Promise<InsightsResponse['sentiment']> {
  const scored = () => db.selectFrom(views.turns.as('t')).where('t.sentiment', 'is not', null);
  const [perMeeting, perSpeaker] = await Promise.all([
    scored()
      .select(['t.meeting_id', 't.title', 't.started_at', 't.is_sample', 't.owner_id', ...mixColumns()])
      .groupBy(['t.meeting_id', 't.title', 't.started_at', 't.is_sample', 't.owner_id'])
      .orderBy('t.started_at', 'desc')
      .execute(),
    scored()
      .select(['t.speaker', ...mixColumns()])
      .groupBy('t.speaker')
      .execute(),
  ]);

  const overall: SentimentMix = { positive: 0, neutral: 0, negative: 0 };
  for (const row of perMeeting) {
    const mix = mixOf(row);
    overall.positive += mix.positive;
    overall.neutral += mix.neutral;
    overall.negative += mix.negative;
  }
  const byMeeting: MeetingSentiment[] = perMeeting
    .slice(0, LIMITS.sentimentMeetings)
    .reverse()
    .map((row) => ({ meeting: meetingRefOf({ ...row, id: row.meeting_id }, views.reader), score: round(num(row.score)), turns: mixOf(row) }));
  const bySpeaker = perSpeaker
    .map((row) => ({ speaker: row.speaker ?? UNNAMED_SPEAKERS, score: round(num(row.score)), turns: mixOf(row), total: num(row.turns) }))
    .sort((a, b) => b.total - a.total)
    .map(({ total: _total, ...speaker }) => speaker);
  return { analysedMeetings: perMeeting.length, overall, byMeeting, bySpeaker };
}

async function participationOf(db: Db, views: MeetingViews): Promise<InsightsResponse['participation']> {
  const rows = await db
    .selectFrom(views.turns.as('t'))
    .select([
      't.speaker',
      sql<number | string>`sum(t.end_ms - t.start_ms)`.as('talk_ms'),
      sql<number | string>`count(*)`.as('turns'),
      sql<number | string>`count(distinct t.meeting_id)`.as('meetings'),
    ])
    .groupBy('t.speaker')
    .execute();
  const totalMs = rows.reduce((sum, r) => sum + Math.max(0, num(r.talk_ms)), 0);
  const speakers: Participant[] = rows
    .map((r) => ({
      speaker: r.speaker ?? UNNAMED_SPEAKERS,
      talkSeconds: Math.round(Math.max(0, num(r.talk_ms)) / 1000),
      share: totalMs === 0 ? 0 : round(Math.max(0, num(r.talk_ms)) / totalMs),
      turns: num(r.turns),
      meetings: num(r.meetings),
    }))
    .sort((a, b) => b.talkSeconds - a.talkSeconds);
  return { totalTalkSeconds: Math.round(totalMs / 1000), speakers };
}

/**
 * The person's own meetings (never the samples, whose long lengths and short transcripts would
 * swamp a new account's figures) started since `since`, with their length and talk time, for the
 * weekly analytics.
 */
export async function activitySince(
  db: Db,
  views: MeetingViews,
  since: Date,
): Promise<{ id: string; startedAt: string; durationSeconds: number; talkMs: number }[]> {
  const after = since.toISOString();
  const [meetings, talk] = await Promise.all([
    db
      .selectFrom(views.meetings.as('m'))
      .where('m.is_sample', '=', 0)
      .where('m.started_at', '>=', after)
      .select(['m.id', 'm.started_at', 'm.duration_seconds'])
      .execute(),
    db
      .selectFrom(views.turns.as('t'))
      .where('t.is_sample', '=', 0)
      .where('t.started_at', '>=', after)
      .select(['t.meeting_id', sql<number | string>`sum(t.end_ms - t.start_ms)`.as('talk_ms')])
      .groupBy('t.meeting_id')
      .execute(),
  ]);
  const talkMs = new Map(talk.map((t) => [t.meeting_id, Math.max(0, Number(t.talk_ms ?? 0))]));
  return meetings.map((m) => ({ id: m.id, startedAt: m.started_at, durationSeconds: m.duration_seconds, talkMs: talkMs.get(m.id) ?? 0 }));
}
