import { z } from 'zod/mini';
import { defineEndpoint } from './endpoint.ts';

/**
 * A meeting's notes (summary, key points, action items, decisions, topics): their state beside the
 * transcript, and the items themselves. Every item cites the transcript segments it comes from.
 */

export const NOTES_STATUSES = ['queued', 'running', 'ready', 'failed', 'off'] as const;
export const NotesStatusSchema = z.enum(NOTES_STATUSES);
export type NotesStatus = z.infer<typeof NotesStatusSchema>;

export const NOTES_ENGINES = ['local', 'llm'] as const;
export const NotesEngineNameSchema = z.enum(NOTES_ENGINES);

/** Where a meeting's notes are; the transcript is ready whatever this says. */
export const NotesStateSchema = z.object({
  status: NotesStatusSchema,
  /** The engine that wrote the notes shown (or is writing them). */
  engine: z.nullable(NotesEngineNameSchema),
  /** Why the notes could not be made (status failed), in words a person can act on. */
  failureReason: z.nullable(z.string()),
  /** Items an engine proposed whose citations did not check out: dropped, and counted here. */
  droppedUncited: z.number().check(z.int(), z.nonnegative()),
  /** Parts of a long meeting the LLM could not cover, written by the local engine instead. */
  localFallbackParts: z.number().check(z.int(), z.nonnegative()),
  /** While running: "part N of M". */
  progress: z.nullable(z.object({ part: z.number().check(z.int(), z.positive()), parts: z.number().check(z.int(), z.positive()) })),
  /** The transcript or its speakers changed after these notes were made: Regenerate offers new ones. */
  outOfDate: z.boolean(),
  generatedAt: z.nullable(z.string()),
});
export type NotesState = z.infer<typeof NotesStateSchema>;

export const INSIGHT_KINDS = ['key_point', 'action_item', 'decision', 'topic'] as const;
export const InsightKindSchema = z.enum(INSIGHT_KINDS);
export type InsightKind = z.infer<typeof InsightKindSchema>;

/** open → done (action items) or dismissed (any item a person rejects); dismissed items stay for the tracker's filter. */
export const ITEM_STATUSES = ['open', 'done', 'dismissed'] as const;
export const ItemStatusSchema = z.enum(ITEM_STATUSES);
export type ItemStatus = z.infer<typeof ItemStatusSchema>;

const isoDate = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2026-11-22'));

/** One item of a meeting's notes. */
export const InsightSchema = z.object({
  id: z.uuid(),
  kind: InsightKindSchema,
  text: z.string(),
  /** The transcript segments it comes from, in transcript order (at least one). */
  segmentIds: z.array(z.uuid()).check(z.minLength(1)),
  /** Where it was said: the first cited segment's start; a topic's span start. */
  startMs: z.number().check(z.int(), z.nonnegative()),
  /** Topics: where the span ends; null for the other kinds. */
  endMs: z.nullable(z.number().check(z.int(), z.nonnegative())),
  /** Action items: who does it (null: Unassigned). */
  assignee: z.nullable(z.string()),
  /** Action items: the due date resolved against the meeting's date. */
  due: z.nullable(isoDate),
  /** Action items: the words the due date was read from ("by Friday"). */
  dueText: z.nullable(z.string()),
  status: ItemStatusSchema,
  /** Proposed by the local engine and not yet accepted or edited by a person. */
  suggested: z.boolean(),
});
export type Insight = z.infer<typeof InsightSchema>;

export const NoteItemParamsSchema = z.object({ id: z.uuid(), itemId: z.uuid() });

/** A person's change to one item: edit its words (or owner and due date), accept it, tick it done, dismiss it. */
export const UpdateNoteItemBodySchema = z
  .object({
    text: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(2_000))),
    assignee: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(100)))),
    due: z.optional(z.nullable(isoDate)),
    status: z.optional(ItemStatusSchema),
    /** true accepts a suggestion as it is. */
    accepted: z.optional(z.literal(true)),
  })
  .check(z.refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'Nothing to update' }));
export type UpdateNoteItemBody = z.infer<typeof UpdateNoteItemBodySchema>;

/** One sentence of the summary the notes wrote, citing the segments it was written from as an item does. */
export const SummarySentenceSchema = z.object({
  text: z.string(),
  /** In transcript order (at least one). */
  segmentIds: z.array(z.uuid()).check(z.minLength(1)),
  /** Where it was said: the first cited segment's start. */
  startMs: z.number().check(z.int(), z.nonnegative()),
});
export type SummarySentence = z.infer<typeof SummarySentenceSchema>;

/**
 * The summary as the sentences that make it, each citing its segments; null when its sentences cite
 * none (notes written before they did, a summary a person edited). Optional: the public demo and
 * shared views leave it out.
 */
export const SummarySentencesSchema = z.optional(z.nullable(z.array(SummarySentenceSchema)));

export const NotesResponseSchema = z.object({
  summary: z.nullable(z.string()),
  summarySentences: SummarySentencesSchema,
  insights: z.array(InsightSchema),
  notes: NotesStateSchema,
});
export type NotesResponse = z.infer<typeof NotesResponseSchema>;

const IdParams = z.object({ id: z.uuid() });

export const notesEndpoints = {
  regenerate: defineEndpoint({
    method: 'POST',
    path: '/api/v1/meetings/:id/notes',
    params: IdParams,
    response: NotesResponseSchema,
    status: 202,
    tag: 'notes',
    summary: 'Write the meeting’s notes again (also after a failure, or when they are out of date or off)',
  }),
  updateItem: defineEndpoint({
    method: 'PATCH',
    path: '/api/v1/meetings/:id/notes/items/:itemId',
    params: NoteItemParamsSchema,
    body: UpdateNoteItemBodySchema,
    response: NotesResponseSchema,
    tag: 'notes',
  }),
};
