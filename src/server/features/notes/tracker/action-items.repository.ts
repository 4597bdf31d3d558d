import crypto from 'node:crypto';
import type { ItemStatus } from '#shared/contracts/notes.ts';
import type { ActionItemMention, ActionItemsQuery, ActionItemsResponse, MentionResolution, TrackedActionItem } from '#shared/contracts/tracker.ts';
import { UNASSIGNED } from '#shared/contracts/tracker.ts';
import type { Db } from '#server/db/create-db.ts';
import { meetingRefOf, readableBy, type MeetingReader } from '../../meetings/meetings.service.ts';
import { toInsight } from '../notes.repository.ts';
import type { FollowUp, OpenItem } from './follow-up-match.ts';

/**
 * The action-item tracker's queries: a person's action items across their meetings (every query
 * joins `meetings` on the owner), and `action_item_mentions`, the later moments that talked about
 * an item again. `today` is the person's date (YYYY-MM-DD): an open item due before it is overdue.
 */

type ItemFilter = { assignee?: string | undefined; meetingId?: string | undefined; itemId?: string };

function actionItemsOf(db: Db, reader: MeetingReader, filter: ItemFilter) {
  let query = db
    .selectFrom('meeting_insights as i')
    .innerJoin('meetings as m', 'm.id', 'i.meeting_id')
    .where(readableBy(reader, 'm'))
    .where('i.kind', '=', 'action_item');
  // An owner cleared by an edit is stored as '' (the edit body allows it): unassigned as well.
  if (filter.assignee === UNASSIGNED) query = query.where((eb) => eb.or([eb('i.assignee', 'is', null), eb('i.assignee', '=', '')]));
  else if (filter.assignee !== undefined) query = query.where('i.assignee', '=', filter.assignee);
  if (filter.meetingId !== undefined) query = query.where('i.meeting_id', '=', filter.meetingId);
  if (filter.itemId !== undefined) query = query.where('i.id', '=', filter.itemId);
  return query;
}

const isOverdue = (item: { status: ItemStatus; due: string | null }, today: string) => item.status === 'open' && item.due !== null && item.due < today;

/** One page of the tracker, with its counts and the filters' choices. */
export async function trackedActionItems(db: Db, reader: MeetingReader, query: ActionItemsQuery, today: string): Promise<ActionItemsResponse> {
  const filtered = actionItemsOf(db, reader, query);
  let listed = filtered;
  if (query.status === 'overdue') listed = listed.where('i.status', '=', 'open').where('i.due', '<', today);
  else if (query.status !== 'all') listed = listed.where('i.status', '=', query.status);
  const [byStatus, overdue, total, page, assignees, meetings] = await Promise.all([
    filtered
      .select(['i.status', (eb) => eb.fn.countAll<number | string>().as('count')])
      .groupBy('i.status')
      .execute(),
    filtered
      .where('i.status', '=', 'open')
      .where('i.due', '<', today)
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirst(),
    listed.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirst(),
    pageOf(db, reader, listed, query, today),
    assigneesOf(db, reader),
    meetingsWithActionItems(db, reader),
  ]);
  const countOf = (status: ItemStatus) => Number(byStatus.find((row) => row.status === status)?.count ?? 0);
  return {
    items: page,
    total: Number(total?.count ?? 0),
    page: query.page,
    pageSize: query.pageSize,
    counts: { open: countOf('open'), done: countOf('done'), dismissed: countOf('dismissed'), overdue: Number(overdue?.count ?? 0) },
    assignees,
    meetings,
  };
}

async function pageOf(
  db: Db,
  reader: MeetingReader,
  listed: ReturnType<typeof actionItemsOf>,
  query: Pick<ActionItemsQuery, 'page' | 'pageSize'>,
  today: string,
): Promise<TrackedActionItem[]> {
  const rows = await listed
    .selectAll('i')
    .select(['m.title', 'm.started_at', 'm.is_sample', 'm.owner_id'])
    .orderBy('m.started_at', 'desc')
    .orderBy('m.id', 'desc')
    .orderBy('i.position')
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  const mentions = await mentionsOf(
    db,
    reader,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const item = toInsight(row);
    return {
      id: item.id,
      text: item.text,
      assignee: item.assignee === '' ? null : item.assignee,
      due: item.due,
      dueText: item.dueText,
      status: item.status,
      startMs: item.startMs,
      meeting: meetingRefOf({ ...row, id: row.meeting_id }, reader),
      segmentIds: item.segmentIds,
      overdue: isOverdue(item, today),
      mentions: mentions.get(item.id) ?? [],
    };
  });
}

/** One of the person's action items as the tracker shows it. */
export async function trackedActionItem(db: Db, reader: MeetingReader, itemId: string, today: string): Promise<TrackedActionItem | undefined> {
  const [item] = await pageOf(db, reader, actionItemsOf(db, reader, { itemId }), { page: 1, pageSize: 1 }, today);
  return item;
}

async function mentionsOf(db: Db, reader: MeetingReader, itemIds: string[]): Promise<Map<string, ActionItemMention[]>> {
  const byItem = new Map<string, ActionItemMention[]>();
  if (itemIds.length === 0) return byItem;
  const rows = await db
    .selectFrom('action_item_mentions as am')
    .innerJoin('meetings as m', 'm.id', 'am.meeting_id')
    .innerJoin('transcript_segments as s', 's.id', 'am.segment_id')
    .where('am.item_id', 'in', itemIds)
    .where(readableBy(reader, 'm'))
    .select([
      'am.id as mention_id',
      'am.item_id',
      'am.segment_id',
      'am.start_ms',
      'am.resolution',
      's.text',
      'm.id',
      'm.title',
      'm.started_at',
      'm.is_sample',
      'm.owner_id',
    ])
    .orderBy('m.started_at')
    .orderBy('am.start_ms')
    .execute();
  for (const row of rows) {
    const mentions = byItem.get(row.item_id) ?? [];
    mentions.push({
      id: row.mention_id,
      meeting: meetingRefOf(row, reader),
      segmentId: row.segment_id,
      startMs: row.start_ms,
      text: row.text,
      resolution: row.resolution,
    });
    byItem.set(row.item_id, mentions);
  }
  return byItem;
}

/** Everyone who owns one of the person's action items, A to Z (sorted here: SQLite and PostgreSQL collate differently). */
async function assigneesOf(db: Db, reader: MeetingReader): Promise<string[]> {
  const rows = await actionItemsOf(db, reader, {}).where('i.assignee', 'is not', null).where('i.assignee', '!=', '').select('i.assignee').distinct().execute();
  return rows
    .map((row) => row.assignee)
    .filter((name): name is string => name !== null)
    .sort((a, b) => a.localeCompare(b));
}

async function meetingsWithActionItems(db: Db, reader: MeetingReader) {
  const rows = await db
    .selectFrom('meetings as m')
    .where(readableBy(reader, 'm'))
    .where('m.id', 'in', (eb) => eb.selectFrom('meeting_insights').select('meeting_insights.meeting_id').where('meeting_insights.kind', '=', 'action_item'))
    .select(['m.id', 'm.title', 'm.started_at', 'm.is_sample', 'm.owner_id'])
    .orderBy('m.started_at', 'desc')
    .orderBy('m.id', 'desc')
    .execute();
  return rows.map((row) => meetingRefOf(row, reader));
}

/**
 * The person's open action items from meetings that started before `startedAt` (not the meeting
 * itself). Sample meetings are fiction: a real meeting never follows up their items.
 */
export async function openItemsBefore(db: Db, reader: MeetingReader, meetingId: string, startedAt: string): Promise<OpenItem[]> {
  const rows = await actionItemsOf(db, reader, {})
    .where('m.is_sample', '=', 0)
    .where('i.status', '=', 'open')
    .where('m.started_at', '<', startedAt)
    .where('m.id', '!=', meetingId)
    .select(['i.id', 'i.text', 'i.due_text'])
    .execute();
  return rows.map((row) => ({ id: row.id, text: row.text, dueText: row.due_text }));
}

/** Stores a meeting's follow-ups; an item it already mentions keeps its mention (and any answer). */
export async function insertMentions(db: Db, meetingId: string, followUps: FollowUp[], createdAt: string): Promise<void> {
  // Chunked so a long list stays under SQLite's bound-parameter limit.
  for (let start = 0; start < followUps.length; start += 100) {
    const chunk = followUps.slice(start, start + 100);
    await db
      .insertInto('action_item_mentions')
      .values(
        chunk.map((followUp) => ({
          id: crypto.randomUUID(),
          item_id: followUp.itemId,
          meeting_id: meetingId,
          segment_id: followUp.segmentId,
          start_ms: Math.max(0, Math.round(followUp.startMs)),
          resolution: null,
          created_at: createdAt,
        })),
      )
      .onConflict((oc) => oc.columns(['item_id', 'meeting_id']).doNothing())
      .execute();
  }
}

/** A mention of one of the person's items, with the item's meeting and status. */
export async function mentionOf(db: Db, reader: MeetingReader, itemId: string, mentionId: string) {
  const row = await db
    .selectFrom('action_item_mentions as am')
    .innerJoin('meeting_insights as i', 'i.id', 'am.item_id')
    .innerJoin('meetings as m', 'm.id', 'i.meeting_id')
    .where('am.id', '=', mentionId)
    .where('am.item_id', '=', itemId)
    .where(readableBy(reader, 'm'))
    .select(['i.meeting_id', 'i.status'])
    .executeTakeFirst();
  return row && { itemMeetingId: row.meeting_id, itemStatus: row.status };
}

export async function resolveMention(db: Db, mentionId: string, resolution: MentionResolution): Promise<void> {
  await db.updateTable('action_item_mentions').set({ resolution }).where('id', '=', mentionId).execute();
}
