import { z } from 'zod';

/**
 * What the model is asked to answer. Items cite the short references ("S12") shown beside each
 * transcript line, never segment ids; lists a model leaves out default to empty.
 */
const RefsSchema = z.array(z.string()).default([]);
const PointSchema = z.object({ text: z.string(), refs: RefsSchema });
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
export const PartNotesSchema = z.object({ summaryPoints: z.array(z.string()).default([]), ...items });

/** The meeting's notes: one part read whole, or the final reduce. */
export const FinalNotesSchema = z.object({ summary: z.string(), ...items });

export type PartNotes = z.output<typeof PartNotesSchema>;
export type FinalNotes = z.output<typeof FinalNotesSchema>;

export const countItems = (notes: Omit<PartNotes, 'summaryPoints'>): number =>
  notes.keyPoints.length + notes.topics.length + notes.actionItems.length + notes.decisions.length;
