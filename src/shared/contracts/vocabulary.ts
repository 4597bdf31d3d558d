import { z } from 'zod/mini';
import { defineEndpoint } from './endpoint.ts';
import { TeamParamsSchema, TeamRoleSchema } from './teams.ts';

/**
 * Custom vocabulary (Settings › Recording, and per team): names, products and terms transcription
 * should know. A meeting is transcribed with its owner's terms and, when it is shared with a team,
 * the team's; its notes are written with them too. Bounded so a list stays a list: every engine
 * prompt and the corrections pass read all of it for every meeting.
 */
export const MAX_VOCABULARY_TERMS = 200;
export const MAX_TERM_LENGTH = 50;
/** Words of one term ("Anika Okafor", "Parley Cloud Pro"): the corrections pass matches up to this many. */
export const MAX_TERM_WORDS = 4;

const TERM_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N}\p{M} '’.&+-]*$/u;

export const VocabularyTermSchema = z.string().check(
  z.trim(),
  z.minLength(1, 'A term cannot be empty.'),
  z.maxLength(MAX_TERM_LENGTH, `A term is at most ${MAX_TERM_LENGTH} characters.`),
  z.regex(TERM_PATTERN, 'A term is made of letters, digits, spaces and . - & + or an apostrophe, starting with a letter or digit.'),
  z.refine((term) => term.split(/\s+/).length <= MAX_TERM_WORDS, `A term is at most ${MAX_TERM_WORDS} words.`),
);

export const VocabularyTermsSchema = z
  .array(VocabularyTermSchema)
  .check(z.maxLength(MAX_VOCABULARY_TERMS, `A vocabulary holds at most ${MAX_VOCABULARY_TERMS} terms.`));

/** PUT bodies: the whole list (duplicates, in any case, are kept once). */
export const SaveVocabularyBodySchema = z.strictObject({ terms: VocabularyTermsSchema });
export type SaveVocabularyBody = z.infer<typeof SaveVocabularyBodySchema>;

export const TeamVocabularySchema = z.object({
  teamId: z.uuid(),
  teamName: z.string(),
  role: TeamRoleSchema,
  terms: z.array(z.string()),
  /** The team's owner and admins edit it; members see what their shared meetings are transcribed with. */
  canEdit: z.boolean(),
});
export type TeamVocabulary = z.infer<typeof TeamVocabularySchema>;

/** GET /api/v1/vocabulary: the caller's own terms, those of each team they are in, and what their plan says. */
export const VocabularyOverviewSchema = z.object({
  terms: z.array(z.string()),
  teams: z.array(TeamVocabularySchema),
  /** Whether the caller's plan includes custom vocabulary (always on a self-hosted installation). */
  included: z.boolean(),
  /** Said under the list: self-hosted, included in the plan, or not included and how to get it. */
  note: z.string(),
});
export type VocabularyOverview = z.infer<typeof VocabularyOverviewSchema>;

const tag = 'vocabulary';

export const vocabularyEndpoints = {
  get: defineEndpoint({ method: 'GET', path: '/api/v1/vocabulary', response: VocabularyOverviewSchema, tag }),
  save: defineEndpoint({
    method: 'PUT',
    path: '/api/v1/vocabulary',
    body: SaveVocabularyBodySchema,
    response: VocabularyOverviewSchema,
    tag,
    summary: "Replaces the caller's custom vocabulary",
  }),
  saveTeam: defineEndpoint({
    method: 'PUT',
    path: '/api/v1/teams/:teamId/vocabulary',
    params: TeamParamsSchema,
    body: SaveVocabularyBodySchema,
    response: VocabularyOverviewSchema,
    tag,
    summary: "Replaces a team's custom vocabulary (its owner and admins)",
  }),
};
