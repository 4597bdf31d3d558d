import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Decision, DecisionLink, DecisionLinkAnswer, DecisionsQuery, DecisionsResponse } from '#shared/contracts/tracker.ts';
import type { Db } from '#server/db/create-db.ts';
import { meetingRefOf, readableBy, type MeetingReader } from '../../meetings/meetings.service.ts';
import { toInsight } from '../notes.repository.ts';
import type { DecisionText, EarlierDecision, SupersedeSuggestion } from './supersede-match.ts';

/**
 * The decision register's queries: a person's decisions across their meetings (every query joins
 * `meetings` on the owner; dismissed decisions are left out everywhere), and `decision_links`, a
 * later decision suggested, then confirmed or rejected, as superseding an earlier one.
 */

type DecisionFilter = { q?: string | undefined; meetingId?: string | undefined; decisionId?: string };

/** `%`, `_` and the escape itself are literal in a search word. */
const likePattern = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function decisionsOf(db: Db, reader: MeetingReader, filter: DecisionFilter) {
  let query = db
    .selectFrom('meeting_insights as i')
    .innerJoin('meetings as m', 'm.id', 'i.meeting_id')
    .where(readableBy(reader, 'm'))
    .where('i.kind', '=', 'decision')
    .where('i.status', '!=', 'dismissed');
  if (filter.meetingId !== undefined) query = query.where('i.meeting_id', '=', filter.meetingId);
  if (filter.decisionId !== undefined) query = query.where('i.id', '=', filter.decisionId);
  // Every word, in the decision or its meeting's title. SQLite's lower() folds ASCII letters only.
  for (const word of (filter.q ?? '').toLowerCase().split(/\s+/).filter(Boolean)) {
    const pattern = likePattern(word);
    query = query.where((eb) =>
      eb.or([sql<boolean>`lower(${eb.ref('i.text')}) like ${pattern} escape '\\'`, sql<boolean>`lower(${eb.ref('m.title')}) like ${pattern} escape '\\'`]),
    );
  }
  return query;
}

/** One page of the register, newest meeting first. */
export async function decisionRegister(db: Db, reader: MeetingReader, query: DecisionsQuery): Promise<DecisionsResponse> {
  const filtered = decisionsOf(db, reader, query);
  const [total, items] = await Promise.all([
    filtered.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirst(),
    pageOf(db, reader, filtered, query),
  ]);
  return { items, total: Number(total?.count ?? 0), page: query.page, pageSize: query.pageSize };
}

/** One of the person's decisions as the register shows it (undefined: not theirs, or dismissed). */
export async function registeredDecision(db: Db, reader: MeetingReader, decisionId: string): Promise<Decision | undefined> {
  const [decision] = await pageOf(db, reader, decisionsOf(db, reader, { decisionId }), { page: 1, pageSize: 1 });
  return decision;
}

async function pageOf(
  db: Db,
  reader: MeetingReader,
  filtered: ReturnType<typeof decisionsOf>,
  query: Pick<DecisionsQuery, 'page' | 'pageSize'>,
): Promise<Decision[]> {
  const rows = await filtered
    .selectAll('i')
    .select(['m.title', 'm.started_at', 'm.is_sample', 'm.owner_id'])
    .orderBy('m.started_at', 'desc')
    .orderBy('m.id', 'desc')
    .orderBy('i.position')
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  const links = await linksOf(
    db,
    reader,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const decision = toInsight(row);
    const linked = links.get(decision.id);
    return {
      id: decision.id,
      text: decision.text,
      meeting: meetingRefOf({ ...row, id: row.meeting_id }, reader),
      startMs: decision.startMs,
      segmentIds: decision.segmentIds,
      supersedes: linked?.supersedes ?? [],
      supersededBy: linked?.supersededBy ?? [],
      suggestedSupersedes: linked?.suggestedSupersedes ?? [],
    };
  });
}

type Links = Pick<Decision, 'supersedes' | 'supersededBy' | 'suggestedSupersedes'>;

/** The links of these decisions whose other end is one of the person's decisions, not dismissed. */
async function linksOf(db: Db, reader: MeetingReader, decisionIds: string[]): Promise<Map<string, Links>> {
  const byDecision = new Map<string, Links>();
  if (decisionIds.length === 0) return byDecision;
  const linksFor = (id: string) => {
    const links = byDecision.get(id) ?? { supersedes: [], supersededBy: [], suggestedSupersedes: [] };
    byDecision.set(id, links);
    return links;
  };
  const otherEnd = (side: 'earlier_id' | 'later_id') =>
    db
      .selectFrom('decision_links as l')
      .innerJoin('meeting_insights as d', 'd.id', side === 'earlier_id' ? 'l.earlier_id' : 'l.later_id')
      .innerJoin('meetings as m', 'm.id', 'd.meeting_id')
      .where(readableBy(reader, 'm'))
      .where('d.status', '!=', 'dismissed')
      .select([
        'l.id as link_id',
        'l.status',
        'l.earlier_id',
        'l.later_id',
        'd.id as decision_id',
        'd.text',
        'd.start_ms',
        'm.id',
        'm.title',
        'm.started_at',
        'm.is_sample',
        'm.owner_id',
      ])
      .orderBy('m.started_at')
      .orderBy('d.position');
  const [earlier, later] = await Promise.all([
    otherEnd('earlier_id').where('l.later_id', 'in', decisionIds).where('l.status', 'in', ['suggested', 'confirmed']).execute(),
    otherEnd('later_id').where('l.earlier_id', 'in', decisionIds).where('l.status', '=', 'confirmed').execute(),
  ]);
  const linkOf = (row: (typeof earlier)[number]): DecisionLink => ({
    linkId: row.link_id,
    decision: { id: row.decision_id, text: row.text, meeting: meetingRefOf(row, reader), startMs: row.start_ms ?? 0 },
  });
  for (const row of earlier) {
    const links = linksFor(row.later_id);
    (row.status === 'confirmed' ? links.supersedes : links.suggestedSupersedes).push(linkOf(row));
  }
  for (const row of later) linksFor(row.earlier_id).supersededBy.push(linkOf(row));
  return byDecision;
}

/** A meeting's decisions (not dismissed), to compare with earlier ones. */
export async function decisionsOfMeeting(db: Db, meetingId: string): Promise<DecisionText[]> {
  return db
    .selectFrom('meeting_insights')
    .where('meeting_id', '=', meetingId)
    .where('kind', '=', 'decision')
    .where('status', '!=', 'dismissed')
    .select(['id', 'text'])
    .orderBy('position')
    .execute();
}

/**
 * The person's decisions from meetings that started before `startedAt`, still standing: one a
 * confirmed link already replaced is not offered again (its successor is). Sample meetings are
 * fiction: a real decision never supersedes theirs.
 */
export async function standingDecisionsBefore(db: Db, reader: MeetingReader, meetingId: string, startedAt: string): Promise<EarlierDecision[]> {
  const rows = await decisionsOf(db, reader, {})
    .where('m.is_sample', '=', 0)
    .where('m.started_at', '<', startedAt)
    .where('m.id', '!=', meetingId)
    .where('i.id', 'not in', (eb) => eb.selectFrom('decision_links').select('decision_links.earlier_id').where('decision_links.status', '=', 'confirmed'))
    .select(['i.id', 'i.text', 'm.started_at'])
    .execute();
  return rows.map((row) => ({ id: row.id, text: row.text, startedAt: row.started_at }));
}

/** Stores suggestions; a pair already linked keeps its link (and the person's answer). */
export async function insertSuggestedLinks(db: Db, suggestions: SupersedeSuggestion[], createdAt: string): Promise<void> {
  for (let start = 0; start < suggestions.length; start += 100) {
    const chunk = suggestions.slice(start, start + 100);
    await db
      .insertInto('decision_links')
      .values(
        chunk.map((s) => ({ id: crypto.randomUUID(), earlier_id: s.earlierId, later_id: s.laterId, status: 'suggested' as const, created_at: createdAt })),
      )
      .onConflict((oc) => oc.columns(['earlier_id', 'later_id']).doNothing())
      .execute();
  }
}

/** A link between two of the person's decisions. */
export async function linkOf(db: Db, reader: MeetingReader, linkId: string): Promise<{ earlierId: string; laterId: string } | undefined> {
  const row = await db
    .selectFrom('decision_links as l')
    .innerJoin('meeting_insights as d', 'd.id', 'l.later_id')
    .innerJoin('meetings as m', 'm.id', 'd.meeting_id')
    .where('l.id', '=', linkId)
    .where(readableBy(reader, 'm'))
    .select(['l.earlier_id', 'l.later_id'])
    .executeTakeFirst();
  return row && { earlierId: row.earlier_id, laterId: row.later_id };
}

/**
 * Records the person's answer, and marks both decisions reviewed: notes written again replace the
 * items nobody reviewed, which would take the answer with them and ask again.
 */
export async function answerLink(db: Db, link: { id: string; earlierId: string; laterId: string }, status: DecisionLinkAnswer): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('decision_links').set({ status }).where('id', '=', link.id).execute();
    await trx.updateTable('meeting_insights').set({ reviewed: 1 }).where('id', 'in', [link.earlierId, link.laterId]).execute();
  });
}
