import { sql } from 'kysely';
import { UNNAMED_SPEAKERS, type InsightsResponse, type MeetingSentiment, type Participant, type SentimentMix } from '#shared/contracts/insights.ts';
import type { Db } from '#server/db/create-db.ts';
import { meetingRefOf, readableBy, type MeetingReader } from './meeting-access.ts';
import { SENTIMENT_THRESHOLD } from './sentiment.ts';

/**
 * Aggregates over a person's meetings for /insights and /analytics: simple sums and counts in SQL,
 * so a million segments never reach Node. Every query is scoped by the reader (meeting-access.ts: their
 * own meetings and those shared with their teams); nothing here can reach another person's private rows.
 */

/** How many meetings the sentiment tab charts. Participation and sentiment list every speaker (the page pages them). */
export const LIMITS = { sentimentMeetings: 12 } as const;

const num = (value: unknown): number => Number(value ?? 0);
const round = (value: number, places = 3) => Math.round(value * 10 ** places) / 10 ** places;

/** The meeting-side tabs of /insights: how many meetings, sentiment and participation. */
export async function meetingInsightsOf(db: Db, reader: MeetingReader): Promise<Pick<InsightsResponse, 'meetings' | 'sentiment' | 'participation'>> {
  const [meetings, sentiment, participation] = await Promise.all([
    db
      .selectFrom('meetings')
      .where(readableBy(reader))
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst(),
    sentimentOf(db, reader),
    participationOf(db, reader),
  ]);
  return { meetings: num(meetings?.n), sentiment, participation };
}

/** Counts of positive, neutral and negative turns, in SQL so a million segments never reach Node. */
const mixColumns = () =>
  [
    sql<number | string>`sum(case when s.sentiment > ${SENTIMENT_THRESHOLD} then 1 else 0 end)`.as('positive'),
    sql<number | string>`sum(case when s.sentiment < ${-SENTIMENT_THRESHOLD} then 1 else 0 end)`.as('negative'),
    sql<number | string>`count(*)`.as('turns'),
    sql<number | string>`avg(s.sentiment)`.as('score'),
  ] as const;

const mixOf = (row: { positive: unknown; negative: unknown; turns: unknown }): SentimentMix => {
  const positive = num(row.positive);
  const negative = num(row.negative);
  return { positive, negative, neutral: num(row.turns) - positive - negative };
};

async function sentimentOf(db: Db, reader: MeetingReader): Promise<InsightsResponse['sentiment']> {
  const perMeeting = await db
    .selectFrom('transcript_segments as s')
    .innerJoin('meetings as m', 'm.id', 's.meeting_id')
    .where(readableBy(reader, 'm'))
    .where('s.sentiment', 'is not', null)
    .select(['m.id', 'm.title', 'm.started_at', 'm.is_sample', 'm.owner_id', ...mixColumns()])
    .groupBy(['m.id', 'm.title', 'm.started_at', 'm.is_sample', 'm.owner_id'])
    .orderBy('m.started_at', 'desc')
    .execute();
  const perSpeaker = await db
    .selectFrom('transcript_segments as s')
    .innerJoin('meetings as m', 'm.id', 's.meeting_id')
    .leftJoin('meeting_speakers as sp', 'sp.id', 's.speaker_id')
    .where(readableBy(reader, 'm'))
    .where('s.sentiment', 'is not', null)
    .select(['sp.display_name', ...mixColumns()])
    .groupBy('sp.display_name')
    .execute();

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
    .map((row) => ({ meeting: meetingRefOf(row, reader), score: round(num(row.score)), turns: mixOf(row) }));
  const bySpeaker = perSpeaker
    .map((row) => ({ speaker: row.display_name ?? UNNAMED_SPEAKERS, score: round(num(row.score)), turns: mixOf(row), total: num(row.turns) }))
    .sort((a, b) => b.total - a.total)
    .map(({ total: _total, ...speaker }) => speaker);
  return { analysedMeetings: perMeeting.length, overall, byMeeting, bySpeaker };
}

async function participationOf(db: Db, reader: MeetingReader): Promise<InsightsResponse['participation']> {
  const rows = await db
    .selectFrom('transcript_segments as s')
    .innerJoin('meetings as m', 'm.id', 's.meeting_id')
    .leftJoin('meeting_speakers as sp', 'sp.id', 's.speaker_id')
    .where(readableBy(reader, 'm'))
    .select([
      'sp.display_name',
      sql<number | string>`sum(s.end_ms - s.start_ms)`.as('talk_ms'),
      sql<number | string>`count(*)`.as('turns'),
      sql<number | string>`count(distinct s.meeting_id)`.as('meetings'),
    ])
    .groupBy('sp.display_name')
    .execute();
  const totalMs = rows.reduce((sum, r) => sum + Math.max(0, num(r.talk_ms)), 0);
  const speakers: Participant[] = rows
    .map((r) => ({
      speaker: r.display_name ?? UNNAMED_SPEAKERS,
      talkSeconds: Math.round(Math.max(0, num(r.talk_ms)) / 1000),
      share: totalMs === 0 ? 0 : round(Math.max(0, num(r.talk_ms)) / totalMs),
      turns: num(r.turns),
      meetings: num(r.meetings),
    }))
    .sort((a, b) => b.talkSeconds - a.talkSeconds);
  return { totalTalkSeconds: Math.round(totalMs / 1000), speakers };
}

/**
 * The person's own meetings (never the samples, whose long lengths and short transcripts made a new
 * account's talk time read 2%) started since `since`, with their length and talk time, for the weekly analytics.
 */
export async function activitySince(
  db: Db,
  reader: MeetingReader,
  since: Date,
): Promise<{ id: string; startedAt: string; durationSeconds: number; talkMs: number }[]> {
  const meetings = await db
    .selectFrom('meetings')
    .where(readableBy(reader))
    .where('is_sample', '=', 0)
    .where('started_at', '>=', since.toISOString())
    .select(['id', 'started_at', 'duration_seconds'])
    .execute();
  const talk = await db
    .selectFrom('transcript_segments as s')
    .innerJoin('meetings as m', 'm.id', 's.meeting_id')
    .where(readableBy(reader, 'm'))
    .where('m.is_sample', '=', 0)
    .where('m.started_at', '>=', since.toISOString())
    .select(['m.id', sql<number | string>`sum(s.end_ms - s.start_ms)`.as('talk_ms')])
    .groupBy('m.id')
    .execute();
  const talkMs = new Map(talk.map((t) => [t.id, Math.max(0, Number(t.talk_ms ?? 0))]));
  return meetings.map((m) => ({ id: m.id, startedAt: m.started_at, durationSeconds: m.duration_seconds, talkMs: talkMs.get(m.id) ?? 0 }));
}
