import { z } from 'zod';

/**
 * What the model is asked to answer. Items and the summary's sentences cite the short references
 * ("S12") shown beside each transcript line, never segment ids; lists a model leaves out default to
 * empty. A summary in another shape (prose in one string) fails the answer as an item would.
 */
const RefsSchema = z.array(z.string()).default([]);
const PointSchema = z.object({ text: z.string(), refs: RefsSchema });
/** One sentence of a summary (or a part's summary point) and the lines it rests on. */
const SentenceSchema = PointSchema;
const TopicSchema = z.object({ title: z.string(), refs: RefsSchema });
const ActionSchema = z.object({
  text: z.string(),
  owner: z.string().nullable().default(null),
  due: z.string().nullable().default(null),
  dueText: z.string().nullable().default(null),
  refs: RefsSchema,
});

const items = {
  keyPoints: z.array(PointSchema).default([]),
  topics: z.array(TopicSchema).default([]),
  actionItems: z.array(ActionSchema).default([]),
  decisions: z.array(PointSchema).default([]),
};

/** Notes on one part of a long meeting (map step), or several parts merged (intermediate reduce). */
export const PartNotesSchema = z.object({ summaryPoints: z.array(SentenceSchema).default([]), ...items });

/** The meeting's notes: one part read whole, or the final reduce. */
export const FinalNotesSchema = z.object({ summary: z.array(SentenceSchema), ...items });

export type CitedSentence = z.output<typeof SentenceSchema>;
export type PartNotes = z.output<typeof PartNotesSchema>;
export type FinalNotes = z.output<typeof FinalNotesSchema>;

export const countItems = (notes: Omit<PartNotes, 'summaryPoints'>): number =>
  notes.keyPoints.length + notes.topics.length + notes.actionItems.length + notes.decisions.length;
