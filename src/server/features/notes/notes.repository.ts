import { inTransaction } from '#server/db/transaction.ts';
import crypto from 'node:crypto';
import type { Selectable } from 'kysely';
import type { ActionItem, Topic } from '#shared/contracts/insights.ts';
import { z } from 'zod/mini';
import { SummarySentenceSchema, type Insight, type InsightKind, type ItemStatus, type NotesState, type SummarySentence } from '#shared/contracts/notes.ts';
import type { Db } from '#server/db/create-db.ts';
import { meetingRefOf, readableBy, type MeetingReader, type MeetingRefRow } from '../meetings/meetings.service.ts';
import type { SpeakerAssignedItem } from './follow-speakers.ts';
import type { MeetingInsightsTable, MeetingNotesTable } from './notes.table.ts';

/**
 * The notes feature's tables: `meeting_notes` (one row of state per meeting) and `meeting_insights`
 * (the items). Reads for one meeting take its id only: the caller (the notes service) has checked
 * that the person may see the meeting. Aggregates across meetings are scoped by owner.
 */

type ItemRow = Selectable<MeetingInsightsTable>;
type StateRow = Selectable<MeetingNotesTable>;
const nowIso = () => new Date().toISOString();

/** What an engine (or the sample content) stores for one item. */
export type NewItem = {
  kind: InsightKind;
  text: string;
  segmentIds: string[];
  startMs: number;
  endMs?: number | null;
  assignee?: string | null;
  /** The speaker the assignee is, and whether as the one who said the first cited line (see follow-speakers.ts). */
  assigneeSpeakerId?: string | null;
  assigneeSaid?: boolean;
  due?: string | null;
  dueText?: string | null;
  suggested: boolean;
};

function parseIds(json: string | null, fallback: string | null): string[] {
  try {
    const value: unknown = json ? JSON.parse(json) : [];
    const ids = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
    return ids.length > 0 ? ids : fallback ? [fallback] : [];
  } catch {
    return fallback ? [fallback] : []; // an unreadable list reads as the one id kept beside it
  }
}

export function toInsight(row: ItemRow): Insight {
  return {
    id: row.id,
    kind: row.kind,
    text: row.text,
    segmentIds: parseIds(row.segment_ids, row.segment_id),
    startMs: row.start_ms ?? 0,
    endMs: row.kind === 'topic' ? (row.end_ms ?? row.start_ms ?? 0) : null,
    assignee: row.assignee,
    due: row.due,
    dueText: row.due_text,
    status: row.status,
    suggested: row.suggested === 1,
  };
}

export async function itemsOfMeeting(db: Db, meetingId: string): Promise<Insight[]> {
  const rows = await db.selectFrom('meeting_insights').selectAll().where('meeting_id', '=', meetingId).orderBy('position').execute();
  // An item whose citations were all lost with a replaced transcript has nothing to point at.
  return rows.map(toInsight).filter((item) => item.segmentIds.length > 0);
}

/** The items of these meetings, by meeting (the caller decided the reader may read them): what Ask's index weighs. */
export async function itemsOfMeetings(db: Db, meetingIds: string[]): Promise<Map<string, Insight[]>> {
  const byMeeting = new Map<string, Insight[]>();
  for (let i = 0; i < meetingIds.length; i += 500) {
    const rows = await db
      .selectFrom('meeting_insights')
      .selectAll()
      .where('meeting_id', 'in', meetingIds.slice(i, i + 500))
      .orderBy('meeting_id')
      .orderBy('position')
      .execute();
    for (const row of rows) {
      const item = toInsight(row);
      if (item.segmentIds.length === 0) continue;
      const list = byMeeting.get(row.meeting_id);
      if (list) list.push(item);
      else byMeeting.set(row.meeting_id, [item]);
    }
  }
  return byMeeting;
}

/** Items a person has reviewed (accepted, edited, ticked, dismissed): notes written again keep them. */
export async function reviewedItemsOf(db: Db, meetingId: string): Promise<Insight[]> {
  const rows = await db.selectFrom('meeting_insights').selectAll().where('meeting_id', '=', meetingId).where('reviewed', '=', 1).orderBy('position').execute();
  return rows.map(toInsight);
}

/**
 * Stores a new set of notes: the items nobody reviewed are replaced, reviewed ones stay, the new
 * ones follow them; in one transaction with the notes' state.
 */
export async function replaceItems(db: Db, meetingId: string, items: NewItem[], state: Partial<StateRow>): Promise<string[]> {
  return inTransaction(db, async (trx) => {
    const ids = items.map(() => crypto.randomUUID());
    await trx.deleteFrom('meeting_insights').where('meeting_id', '=', meetingId).where('reviewed', '=', 0).execute();
    const last = await trx
      .selectFrom('meeting_insights')
      .select((eb) => eb.fn.max<number | string | null>('position').as('position'))
      .where('meeting_id', '=', meetingId)
      .executeTakeFirst();
    const first = last?.position === null || last?.position === undefined ? 0 : Number(last.position) + 1;
    // Chunked so a long meeting's notes stay under SQLite's bound-parameter limit.
    for (let start = 0; start < items.length; start += 200) {
      const chunk = items.slice(start, start + 200);
      await trx
        .insertInto('meeting_insights')
        .values(
          chunk.map((item, i) => ({
            id: ids[start + i]!,
            meeting_id: meetingId,
            kind: item.kind,
            text: item.text,
            assignee: item.assignee ?? null,
            assignee_speaker_id: item.assigneeSpeakerId ?? null,
            assignee_said: item.assigneeSpeakerId && item.assigneeSaid ? 1 : 0,
            due: item.due ?? null,
            due_text: item.dueText ?? null,
            segment_id: item.segmentIds[0] ?? null,
            segment_ids: JSON.stringify(item.segmentIds),
            start_ms: Math.max(0, Math.round(item.startMs)),
            end_ms: item.endMs === undefined || item.endMs === null ? null : Math.max(0, Math.round(item.endMs)),
            status: 'open' as const,
            suggested: item.suggested ? 1 : 0,
            reviewed: 0,
            position: first + start + i,
          })),
        )
        .execute();
    }
    await writeState(trx, meetingId, state);
    return ids;
  });
}

/** Changes one item; answers it as it is now, or nothing when it is not there. */
export async function updateItem(
  db: Db,
  meetingId: string,
  itemId: string,
  changes: Partial<Pick<ItemRow, 'text' | 'assignee' | 'assignee_speaker_id' | 'assignee_said' | 'due' | 'due_text' | 'status' | 'suggested'>>,
): Promise<Insight | undefined> {
  const result = await db
    .updateTable('meeting_insights')
    .set({ ...changes, reviewed: 1 })
    .where('id', '=', itemId)
    .where('meeting_id', '=', meetingId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0 ? itemOf(db, meetingId, itemId) : undefined;
}

/** The action items whose assignee is a speaker of the meeting (follow-speakers.ts keeps them in step). */
export async function speakerAssignedItemsOf(db: Db, meetingId: string): Promise<SpeakerAssignedItem[]> {
  const rows = await db
    .selectFrom('meeting_insights')
    .select(['id', 'assignee', 'assignee_speaker_id', 'assignee_said', 'segment_ids', 'segment_id'])
    .where('meeting_id', '=', meetingId)
    .where('kind', '=', 'action_item')
    .where('assignee_speaker_id', 'is not', null)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    assignee: row.assignee,
    speakerId: row.assignee_speaker_id!,
    said: row.assignee_said === 1,
    segmentIds: parseIds(row.segment_ids, row.segment_id),
  }));
}

/** A new assignee for items that follow a speaker; not a person's edit, so the items' review state stays as it is. */
export async function setFollowedAssignees(db: Db, meetingId: string, changes: readonly { id: string; assignee: string; speakerId: string }[]): Promise<void> {
  for (const change of changes) {
    await db
      .updateTable('meeting_insights')
      .set({ assignee: change.assignee, assignee_speaker_id: change.speakerId })
      .where('id', '=', change.id)
      .where('meeting_id', '=', meetingId)
      .execute();
  }
}

export async function itemOf(db: Db, meetingId: string, itemId: string): Promise<Insight | undefined> {
  const row = await db.selectFrom('meeting_insights').selectAll().where('id', '=', itemId).where('meeting_id', '=', meetingId).executeTakeFirst();
  return row && toInsight(row);
}

export async function stateOf(db: Db, meetingId: string): Promise<StateRow | undefined> {
  return db.selectFrom('meeting_notes').selectAll().where('meeting_id', '=', meetingId).executeTakeFirst();
}

/** Creates or updates a meeting's notes state with the given fields. */
export async function writeState(db: Db, meetingId: string, fields: Partial<StateRow>): Promise<void> {
  const updatedAt = nowIso();
  const { meeting_id: _ignored, ...changes } = fields;
  await db
    .insertInto('meeting_notes')
    .values({
      meeting_id: meetingId,
      status: 'queued',
      engine: null,
      failure_reason: null,
      dropped_uncited: 0,
      local_fallback_parts: 0,
      part: null,
      parts: null,
      source_revision: null,
      generated_at: null,
      ...changes,
      updated_at: updatedAt,
    })
    .onConflict((oc) => oc.column('meeting_id').doUpdateSet({ ...changes, updated_at: updatedAt }))
    .execute();
}

/** Bounds what is stored and read back: a summary runs to 150 words, so a few dozen sentences at most. */
const MAX_SUMMARY_SENTENCES = 100;
const StoredSentencesSchema = z.array(SummarySentenceSchema).check(z.maxLength(MAX_SUMMARY_SENTENCES));

/** The summary's cited sentences as stored with the notes' state; null when there are none, or too many to be a summary. */
export function storedSummarySentences(sentences: readonly SummarySentence[] | undefined): string | null {
  if (!sentences || sentences.length === 0 || sentences.length > MAX_SUMMARY_SENTENCES) return null;
  return JSON.stringify(sentences.map(({ text, segmentIds, startMs }) => ({ text, segmentIds, startMs: Math.max(0, Math.round(startMs)) })));
}

/**
 * The stored sentences while they still make the meeting's summary as it is: a summary a person
 * edited since, or written again without them, has no sentences to cite. Unreadable ones are none.
 */
export function presentSummarySentences(row: StateRow | undefined, summary: string | null): SummarySentence[] | null {
  if (!row?.summary_sentences || !summary) return null;
  let value: unknown;
  try {
    value = JSON.parse(row.summary_sentences);
  } catch {
    return null;
  }
  const parsed = StoredSentencesSchema.safeParse(value);
  if (!parsed.success) return null;
  return makesSummary(parsed.data, summary) ? parsed.data : null;
}

/** Whether the sentences, joined, are the summary as it stands (not once a person edited it). */
export function makesSummary(sentences: readonly { text: string }[], summary: string): boolean {
  return sentences.map((s) => s.text).join(' ') === summary.trim();
}

/** Presents a state row for the API, given the meeting's current transcript revision. */
export function presentState(row: StateRow | undefined, transcriptRevision: number): NotesState {
  if (!row) {
    return { status: 'off', engine: null, failureReason: null, droppedUncited: 0, localFallbackParts: 0, progress: null, outOfDate: false, generatedAt: null };
  }
  const running = row.status === 'running' && row.part !== null && row.parts !== null && row.parts > 0;
  return {
    status: row.status,
    engine: row.engine,
    failureReason: row.failure_reason,
    droppedUncited: row.dropped_uncited,
    localFallbackParts: row.local_fallback_parts,
    progress: running ? { part: Math.max(1, row.part!), parts: row.parts! } : null,
    outOfDate: row.generated_at !== null && row.source_revision !== null && row.source_revision !== transcriptRevision,
    generatedAt: row.generated_at,
  };
}

/** Item counts of a person's own meetings, for the dashboard (dismissed items and the sample meetings do not count). */
export async function countsOf(db: Db, ownerId: string): Promise<{ keyPoints: number; actionItems: number; decisions: number; topics: number }> {
  const kinds = await db
    .selectFrom('meeting_insights')
    .innerJoin('meetings', 'meetings.id', 'meeting_insights.meeting_id')
    .where('meetings.owner_id', '=', ownerId)
    // As the usage figures beside them: the person's own meetings, never the samples.
    .where('meetings.is_sample', '=', 0)
    .where('meeting_insights.status', '!=', 'dismissed')
    .select(['meeting_insights.kind', (eb) => eb.fn.countAll<number | string>().as('count')])
    .groupBy('meeting_insights.kind')
    .execute();
  const count = (kind: InsightKind) => Number(kinds.find((k) => k.kind === kind)?.count ?? 0);
  return { keyPoints: count('key_point'), actionItems: count('action_item'), decisions: count('decision'), topics: count('topic') };
}

export const LIMITS = { topics: 30, actionItems: 100 } as const;

/** Topics across a person's meetings: the same name in several meetings is one topic, newest meeting first. */
export async function topicsOf(db: Db, reader: MeetingReader): Promise<Topic[]> {
  const rows = await db
    .selectFrom('meeting_insights as i')
    .innerJoin('meetings as m', 'm.id', 'i.meeting_id')
    .where(readableBy(reader, 'm'))
    .where('i.kind', '=', 'topic')
    .where('i.status', '!=', 'dismissed')
    .select(['i.text', 'm.id', 'm.title', 'm.started_at', 'm.is_sample', 'm.owner_id'])
    .orderBy('m.started_at', 'desc')
    .execute();
  const byName = new Map<string, { name: string; meetings: Set<string>; last: MeetingRefRow }>();
  for (const row of rows) {
    const key = row.text.trim().toLowerCase();
    const topic = byName.get(key) ?? { name: row.text.trim(), meetings: new Set<string>(), last: row };
    topic.meetings.add(row.id);
    byName.set(key, topic);
  }
  return [...byName.values()]
    .sort((a, b) => b.meetings.size - a.meetings.size || b.last.started_at.localeCompare(a.last.started_at))
    .slice(0, LIMITS.topics)
    .map((t) => ({ name: t.name, meetings: t.meetings.size, lastDiscussed: meetingRefOf(t.last, reader) }));
}

/** A person's action items across meetings, newest meeting first. */
export async function actionItemsOf(db: Db, reader: MeetingReader, filter: { status?: ItemStatus } = {}): Promise<ActionItem[]> {
  let query = db
    .selectFrom('meeting_insights as i')
    .innerJoin('meetings as m', 'm.id', 'i.meeting_id')
    .where(readableBy(reader, 'm'))
    .where('i.kind', '=', 'action_item');
  query = filter.status ? query.where('i.status', '=', filter.status) : query.where('i.status', '!=', 'dismissed');
  const rows = await query
    .select([
      'i.id as item_id',
      'i.text',
      'i.assignee',
      'i.due',
      'i.due_text',
      'i.status',
      'i.start_ms',
      'm.id',
      'm.title',
      'm.started_at',
      'm.is_sample',
      'm.owner_id',
    ])
    .orderBy('m.started_at', 'desc')
    .orderBy('i.position')
    .limit(LIMITS.actionItems)
    .execute();
  return rows.map((r) => ({
    id: r.item_id,
    text: r.text,
    assignee: r.assignee,
    due: r.due,
    dueText: r.due_text,
    status: r.status,
    startMs: r.start_ms ?? 0,
    meeting: meetingRefOf(r, reader),
  }));
}

/** Ready meetings (not samples) that have never had notes: a crash may have lost their notes job. */
export async function meetingsWithoutNotes(db: Db): Promise<{ id: string; ownerId: string }[]> {
  const rows = await db
    .selectFrom('meetings')
    .leftJoin('meeting_notes', 'meeting_notes.meeting_id', 'meetings.id')
    .select(['meetings.id', 'meetings.owner_id'])
    .where('meetings.status', '=', 'ready')
    .where('meetings.is_sample', '=', 0)
    .where((eb) => eb.or([eb('meeting_notes.meeting_id', 'is', null), eb('meeting_notes.status', 'in', ['queued', 'running'])]))
    .execute();
  return rows.map((r) => ({ id: r.id, ownerId: r.owner_id }));
}
