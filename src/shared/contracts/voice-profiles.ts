import { z } from 'zod/mini';
import { defineEndpoint } from './endpoint.ts';

/**
 * Voice profiles (issue 32): numbers that describe a person's voice (speaker embeddings computed
 * from their turns in a meeting's recording, never the audio), kept only with that person's
 * recorded consent, so that later meetings can name them. A person sees and deletes their own in
 * Settings; a profile is used in their own meetings and in those of the one team they chose.
 */

const tag = 'voice-profiles';
const Id = z.uuid();
const Title = z.string().check(z.maxLength(500));
const Name = z.string().check(z.maxLength(200));
const When = z.string().check(z.maxLength(40));

/** The meetings a profile can come from, at most (older ones give way to newer). */
export const MAX_VOICE_PROFILE_SOURCES = 20;

/** How voices are described now: sherpa-onnx's speaker-embedding model, or the built-in features (with why not the model). */
export const VoicePathSchema = z.object({
  kind: z.enum(['sherpa-onnx', 'built-in']),
  model: z.nullable(Name),
  reason: z.nullable(z.string().check(z.maxLength(1000))),
});
export type VoicePath = z.infer<typeof VoicePathSchema>;

/** One meeting a profile came from: the person's consent names it, and each accepted suggestion adds one. */
export const VoiceProfileSourceSchema = z.object({
  meetingId: Id,
  meetingTitle: Title,
  /** How its voice came in: enrolled from the meeting, or a suggestion the meeting's owner accepted. */
  via: z.enum(['enrolment', 'suggestion']),
  addedAt: When,
  /** Whether the person may open the meeting (their own, or shared with a team of theirs now). */
  canOpen: z.boolean(),
  /**
   * `current`: used to name the person. Voices described otherwise than the server describes them
   * now (an older version, another engine) are not used: they are
   * being learned again from the meeting's recording (`relearning`), or cannot be, the recording or
   * the speaker being gone (`needs a new sample`: the person says "This speaker is me" again).
   */
  state: z.enum(['current', 'relearning', 'needs a new sample']),
});
export type VoiceProfileSource = z.infer<typeof VoiceProfileSourceSchema>;

export const VoiceProfileSchema = z.object({
  createdAt: When,
  updatedAt: When,
  /** The team whose members' meetings may name the person; null: the person's own meetings only. */
  team: z.nullable(z.object({ id: Id, name: Name })),
  sources: z.array(VoiceProfileSourceSchema).check(z.maxLength(MAX_VOICE_PROFILE_SOURCES)),
  /** Which description the profile holds: voices are compared only with voices described the same way. */
  paths: z.array(Name).check(z.maxLength(10)),
});
export type VoiceProfile = z.infer<typeof VoiceProfileSchema>;

/** A teammate named a speaker after the person and asks to keep a profile of their voice. */
export const VoiceConsentRequestSchema = z.object({
  id: Id,
  requestedBy: z.object({ id: Id, name: Name }),
  meetingTitle: Title,
  /** The team the request came through (the one the profile would be used in, unless the person chooses another). */
  team: z.nullable(z.object({ id: Id, name: Name })),
  createdAt: When,
});
export type VoiceConsentRequest = z.infer<typeof VoiceConsentRequestSchema>;

/**
 * A voice the person agreed to keep, being learned from its meeting's recording (`pending`: a job
 * decodes it) or that could not be (`failed`, with why, in words the person can act on).
 */
export const VoiceLearningSchema = z.object({
  id: Id,
  meetingId: Id,
  meetingTitle: Title,
  status: z.enum(['pending', 'failed']),
  error: z.nullable(z.string().check(z.maxLength(1000))),
  since: When,
});
export type VoiceLearning = z.infer<typeof VoiceLearningSchema>;

/** The voices being learned or that failed, newest first, at most. */
export const MAX_VOICE_LEARNING_SHOWN = 20;

export const MyVoiceResponseSchema = z.object({
  profile: z.nullable(VoiceProfileSchema),
  requests: z.array(VoiceConsentRequestSchema).check(z.maxLength(100)),
  learning: z.array(VoiceLearningSchema).check(z.maxLength(MAX_VOICE_LEARNING_SHOWN)),
  path: VoicePathSchema,
});
export type MyVoiceResponse = z.infer<typeof MyVoiceResponseSchema>;

/** "This speaker is me", or the speaker named after a teammate (who is asked before anything is kept). */
export const EnrolVoiceBodySchema = z.discriminatedUnion('who', [
  z.object({ who: z.literal('me'), teamId: z.optional(z.nullable(Id)) }),
  z.object({ who: z.literal('teammate'), userId: Id }),
]);
export type EnrolVoiceBody = z.infer<typeof EnrolVoiceBodySchema>;

export const EnrolVoiceResponseSchema = z.object({
  /**
   * `learning`: the caller's consent is recorded and their voice is being learned from the recording
   * (a job; `learning` in the caller's voice profile says when it is done or why it failed);
   * `asked`: the teammate was asked and nothing is kept until they accept.
   */
  outcome: z.enum(['learning', 'asked']),
  /** The name the speaker has now. */
  displayName: Name,
});

export const AnswerVoiceRequestBodySchema = z.object({
  accept: z.boolean(),
  /** With an acceptance: the team the profile is used in (null: own meetings only); omitted: the request's team. */
  teamId: z.optional(z.nullable(Id)),
});

export const UpdateVoiceProfileBodySchema = z.object({ teamId: z.nullable(Id) });

/** "Is this Tomasz?": a speaker of the meeting sounds like a profile, not surely enough to name them. */
export const VoiceSuggestionSchema = z.object({
  id: Id,
  speakerId: Id,
  person: z.object({ id: Id, name: Name }),
});
export type VoiceSuggestion = z.infer<typeof VoiceSuggestionSchema>;

/** A suggestion the owner accepted, its voice being taught to the person's profile (a job), or why it could not be. */
export const VoiceSuggestionLearningSchema = z.object({
  id: Id,
  speakerId: Id,
  person: z.object({ id: Id, name: Name }),
  status: z.enum(['pending', 'failed']),
  error: z.nullable(z.string().check(z.maxLength(1000))),
});
export type VoiceSuggestionLearning = z.infer<typeof VoiceSuggestionLearningSchema>;

export const VoiceSuggestionsResponseSchema = z.object({
  suggestions: z.array(VoiceSuggestionSchema).check(z.maxLength(100)),
  learning: z.array(VoiceSuggestionLearningSchema).check(z.maxLength(100)),
});
export type VoiceSuggestionsResponse = z.infer<typeof VoiceSuggestionsResponseSchema>;

const MeetingParams = z.object({ id: Id });
const SpeakerParams = z.object({ id: Id, speakerId: Id });
const SuggestionParams = z.object({ id: Id, suggestionId: Id });

export const voiceProfileEndpoints = {
  enrol: defineEndpoint({
    method: 'POST',
    path: '/api/v1/meetings/:id/speakers/:speakerId/voice',
    params: SpeakerParams,
    body: EnrolVoiceBodySchema,
    response: EnrolVoiceResponseSchema,
    status: 202,
    apiTokens: false,
    tag,
    summary: 'Names a speaker after the caller (their voice is learned for their profile) or a teammate (asked for consent first)',
  }),
  mine: defineEndpoint({
    method: 'GET',
    path: '/api/v1/voice-profile',
    response: MyVoiceResponseSchema,
    apiTokens: false,
    tag,
    summary: "The caller's voice profile, the requests to keep one, and how voices are described",
  }),
  update: defineEndpoint({
    method: 'PATCH',
    path: '/api/v1/voice-profile',
    body: UpdateVoiceProfileBodySchema,
    response: MyVoiceResponseSchema,
    apiTokens: false,
    tag,
    summary: 'Chooses the team whose meetings may name the caller',
  }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: '/api/v1/voice-profile',
    response: MyVoiceResponseSchema,
    apiTokens: false,
    tag,
    summary: "Deletes the caller's voice profile at once",
  }),
  answerRequest: defineEndpoint({
    method: 'POST',
    path: '/api/v1/voice-profile/requests/:id',
    params: MeetingParams,
    body: AnswerVoiceRequestBodySchema,
    response: MyVoiceResponseSchema,
    apiTokens: false,
    tag,
    summary: 'Accepts or declines a request to keep a profile of the caller\u2019s voice',
  }),
  suggestions: defineEndpoint({
    method: 'GET',
    path: '/api/v1/meetings/:id/voice-suggestions',
    params: MeetingParams,
    response: VoiceSuggestionsResponseSchema,
    tag,
    summary: 'Speakers of a meeting that sound like someone with a voice profile, and the accepted ones being learned',
  }),
  answerSuggestion: defineEndpoint({
    method: 'POST',
    path: '/api/v1/meetings/:id/voice-suggestions/:suggestionId',
    params: SuggestionParams,
    body: z.object({ accept: z.boolean() }),
    response: VoiceSuggestionsResponseSchema,
    apiTokens: false,
    tag,
    summary: 'Accepts (names the speaker; the voice is then taught to the profile) or rejects (never asked again) a suggestion',
  }),
};
