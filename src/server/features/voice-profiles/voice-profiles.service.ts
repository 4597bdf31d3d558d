import crypto from 'node:crypto';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { z } from 'zod';
import type { NewDomainEvent } from '#shared/contracts/events.ts';
import type { EnrolVoiceBody, MyVoiceResponse, VoicePath, VoiceSuggestionsResponse } from '#shared/contracts/voice-profiles.ts';
import { MAX_VOICE_LEARNING_SHOWN, MAX_VOICE_PROFILE_SOURCES } from '#shared/contracts/voice-profiles.ts';
import type { Db } from '#server/db/create-db.ts';
import type { RateLimiters } from '#server/lib/rate-limit.ts';
import type { EventRecorder } from '#server/events/domain-events.ts';
import type { JobQueue } from '#server/jobs/job-queue.ts';
import { AppError, notFound } from '#server/lib/app-error.ts';
import type { MeetingsService } from '../meetings/meetings.service.ts';
import type { TeamsService } from '../teams/teams.service.ts';
import {
  voiceComparison,
  type KnownVoices,
  type NameKnownVoices,
  type TranscriptionService,
  type VoicePath as SpeakerVoicePath,
  type VoiceTurn,
} from '../transcription/transcription.service.ts';
import {
  addSamples,
  candidateProfiles,
  consentById,
  consentsOf,
  decideConsent,
  decideSuggestion,
  deleteProfile,
  ensureProfile,
  insertConsent,
  insertSuggestion,
  pendingConsentFor,
  pendingConsentsFor,
  profileOf,
  removeAllOf,
  samplesOf,
  setProfileTeam,
  sampleById,
  samplesToRelearn,
  settleLearning,
  settleRelearning,
  anySuggestion,
  learningOf,
  suggestionById,
  suggestionsOf,
  trimSamples,
  type SuggestionRow,
} from './voice-profiles.repository.ts';

/**
 * Similarity (the path's own: see voiceComparison) above which a speaker is named after a profile
 * at once, and above which (below that) the meeting's owner is asked "Is this …?". Per
 * voice-embedding path, since the numbers of the two paths lie very differently:
 * - built-in (the Bhattacharyya coefficient of two voices' MFCC means and spreads), set on the voices
 *   bench's tune clips only (flite voices enrolled in one meeting and met in another; the pyannote
 *   sample's two people, first half enrolled, second half met), each met again through other
 *   microphones (quieter, a 150 Hz high-pass, a phone band, the bass up). A name needs more than any
 *   other person reaches in any of them: the pyannote sample's two people, on one microphone heard
 *   through a high-pass or a phone band, reach 0.835, so a name needs 0.84. The microphone moves
 *   a voice's own similarity too (a phone band takes one of 0.97 to 0.56): below 0.84 a voice is
 *   asked about down to 0.7 ("Is this …?" is one click); another person's flite voice lies at 0.66
 *   or below, but flite's older recording of one voice's speaker at 0.80, which is asked about.
 * - sherpa-onnx's speaker-embedding model (cosine similarity): not measured here (no such model on
 *   the test machine). Diarization joins two stretches into one speaker above 0.5 similarity (its
 *   clustering threshold, a cosine distance of 0.5, sherpa-onnx's own value for these models), so
 *   a suggestion starts there, and a name needs the clearly same-voice 0.7.
 */
export const MATCH_THRESHOLDS: Record<SpeakerVoicePath['kind'], { name: number; suggest: number }> = {
  'built-in': { name: 0.84, suggest: 0.7 },
  'sherpa-onnx': { name: 0.7, suggest: 0.5 },
};

/**
 * Voices learned from recordings a person may ask for in an hour (enrolling, accepting a request or
 * a suggestion): each decodes a whole recording, so a script could keep the server busy with them.
 */
export const VOICE_LEARNING_PER_HOUR = 30;

/** What a voice is learned for: a consent given, a suggestion accepted, or a kept sample described otherwise than now (learned again). */
const LearningPayload = z.object({ kind: z.enum(['consent', 'suggestion', 'sample']), id: z.uuid() });
type LearningPayload = z.infer<typeof LearningPayload>;

/** A voice that could not be learned is shown to the person for a week, then let go. */
const FAILED_LEARNING_SHOWN_MS = 7 * 24 * 3_600_000;

/** The descriptions of a voice a profile keeps: the newest, one per meeting it came from. */
const MAX_SAMPLES = MAX_VOICE_PROFILE_SOURCES;

export type VoiceProfilesService = ReturnType<typeof createVoiceProfilesService>;

const encode = (embedding: Float32Array): string => JSON.stringify(Array.from(embedding, (x) => Math.round(x * 1e6) / 1e6));

/** A meeting's speakers with their turns (from its transcript lines). */
function turnsBySpeaker(segments: readonly { speakerId: string | null; startMs: number; endMs: number }[]): Map<string, VoiceTurn[]> {
  const turns = new Map<string, VoiceTurn[]>();
  for (const segment of segments) {
    if (!segment.speakerId) continue;
    const list = turns.get(segment.speakerId) ?? [];
    list.push({ startMs: segment.startMs, endMs: segment.endMs });
    turns.set(segment.speakerId, list);
  }
  return turns;
}

export function createVoiceProfilesService(deps: {
  db: Db;
  meetings: MeetingsService;
  transcription: Pick<TranscriptionService, 'voicePath' | 'voicesOf'>;
  teams: Pick<TeamsService, 'teamIdsOf' | 'list'>;
  profilesOf: (ids: readonly string[]) => Promise<Map<string, { name: string; email: string }>>;
  /**
   * The consent request's event commits with the request (notifications tell the teammate), and a
   * decision to learn a voice with the decision (this feature's subscriber queues the learning).
   */
  events: EventRecorder;
  rateLimiters: RateLimiters;
  /** Voices are learned in jobs ("voice-learning"), tried `maxAttempts` times when the recording cannot be read. */
  jobs: JobQueue;
  maxAttempts: number;
  retryDelayMs: number;
  now: () => Date;
  log: Logger;
}) {
  const { db, meetings } = deps;
  const learningLimiter = deps.rateLimiters.limiter({ keyPrefix: 'voiceLearning', points: VOICE_LEARNING_PER_HOUR, duration: 3600 });
  /** Counts one voice learned on behalf of `userId`; refused past the hour's allowance. */
  const allowLearning = async (userId: string): Promise<void> => {
    const allowance = await learningLimiter.consume(userId);
    if (!allowance.allowed)
      throw new AppError('RATE_LIMITED', `Too many voices learned this hour; try again in ${Math.ceil(allowance.msBeforeNext / 60_000)} min.`);
  };
  const nowIso = () => deps.now().toISOString();
  const nameOf = async (userId: string): Promise<string> => {
    const profile = (await deps.profilesOf([userId])).get(userId);
    return profile?.name || profile?.email.split('@')[0] || 'Someone';
  };

  const pathOf = async (): Promise<VoicePath> => {
    const path = await deps.transcription.voicePath();
    return path.kind === 'sherpa-onnx' ? { kind: path.kind, model: path.model, reason: null } : { kind: 'built-in', model: null, reason: path.reason };
  };

  /**
   * How voices are described now. A sample described otherwise (an older way of the built-in
   * features, or a speaker-embedding model no longer the active one) is never compared: it is
   * learned again from its meeting.
   */
  const activeKey = async (): Promise<string> => (await deps.transcription.voicePath()).key;

  /**
   * The voice of one speaker of a meeting, described now from the meeting's recording; an error a
   * person can act on when there is none to describe.
   */
  const voiceOf = async (meetingId: string, speakerId: string, signal?: AbortSignal): Promise<{ path: string; embedding: Float32Array }> => {
    const source = await meetings.notesSource(meetingId);
    const turns = source && turnsBySpeaker(source.segments).get(speakerId);
    if (!source || !turns) throw new AppError('VALIDATION_FAILED', 'The speaker is no longer in this meeting.');
    const described = await deps.transcription.voicesOf(meetingId, [turns], signal ? { signal } : {});
    if (!described) throw new AppError('VALIDATION_FAILED', 'This meeting has no recording to learn a voice from.');
    const embedding = described.voices[0];
    if (!embedding)
      throw new AppError('VALIDATION_FAILED', 'This speaker says too little in the recording to learn their voice (at least 3 seconds of speech).');
    return { path: described.path.key, embedding };
  };

  const keepVoice = async (
    userId: string,
    teamId: string | null | undefined,
    from: { meetingId: string; meetingTitle: string; speakerId: string; via: 'enrolment' | 'suggestion' },
    voice: { path: string; embedding: Float32Array },
    /** Marks the consent or suggestion learned: false when it no longer wants to be (withdrawn meanwhile), and nothing is kept. */
    settle: (trx: Db) => Promise<boolean>,
  ) => {
    const now = nowIso();
    await deps.events.transaction(async (trx) => {
      if (!(await settle(trx))) return;
      await ensureProfile(trx, userId, teamId, now);
      await addSamples(trx, [
        {
          user_id: userId,
          meeting_id: from.meetingId,
          meeting_title: from.meetingTitle,
          speaker_id: from.speakerId,
          via: from.via,
          path: voice.path,
          embedding: encode(voice.embedding),
          created_at: now,
        },
      ]);
      await trimSamples(trx, userId, MAX_SAMPLES);
    });
  };

  /** The team the person may choose for their profile: one of theirs, or none. */
  const checkTeam = async (userId: string, teamId: string | null | undefined): Promise<void> => {
    if (teamId && !(await deps.teams.teamIdsOf(userId)).includes(teamId)) throw notFound('Team');
  };

  const mine = async (userId: string): Promise<MyVoiceResponse> => {
    const failedSince = new Date(deps.now().getTime() - FAILED_LEARNING_SHOWN_MS).toISOString();
    const [profile, requests, learningNow, path, teams, key] = await Promise.all([
      profileOf(db, userId),
      pendingConsentsFor(db, userId, 100),
      learningOf(db, userId, failedSince, MAX_VOICE_LEARNING_SHOWN),
      pathOf(),
      deps.teams.list(userId),
      activeKey(),
    ]);
    const teamOf = (id: string | null) => {
      const team = id ? teams.find((t) => t.id === id) : undefined;
      return team ? { id: team.id, name: team.name } : null;
    };
    const requesters = await deps.profilesOf([...new Set(requests.map((r) => r.requested_by))]);
    let presented: MyVoiceResponse['profile'] = null;
    if (profile) {
      const samples = await samplesOf(db, [userId]);
      const sources = await Promise.all(
        samples.slice(0, MAX_VOICE_PROFILE_SOURCES).map(async (s) => ({
          meetingId: s.meeting_id,
          meetingTitle: s.meeting_title,
          via: s.via,
          addedAt: s.created_at,
          canOpen: (await meetings.read(userId, s.meeting_id)) !== undefined,
          state: s.path === key ? ('current' as const) : s.relearn_error === null ? ('relearning' as const) : ('needs a new sample' as const),
        })),
      );
      presented = {
        createdAt: profile.created_at,
        updatedAt: profile.updated_at,
        team: teamOf(profile.team_id),
        sources,
        paths: [...new Set(samples.map((s) => s.path))].slice(0, 10),
      };
    }
    return {
      profile: presented,
      requests: requests.map((r) => ({
        id: r.id,
        requestedBy: { id: r.requested_by, name: requesters.get(r.requested_by)?.name || 'Someone' },
        meetingTitle: r.meeting_title,
        team: teamOf(r.team_id),
        createdAt: r.created_at,
      })),
      learning: learningNow.map((c) => ({
        id: c.id,
        meetingId: c.meeting_id,
        meetingTitle: c.meeting_title,
        status: c.learning === 'failed' ? ('failed' as const) : ('pending' as const),
        error: c.learning === 'failed' ? c.learning_error : null,
        since: c.decided_at ?? c.created_at,
      })),
      path,
    };
  };

  /** The open suggestions of a meeting the caller may read, and the accepted ones being learned or that failed, with the people's names. */
  const openSuggestions = async (meetingId: string): Promise<VoiceSuggestionsResponse> => {
    const all = await suggestionsOf(db, meetingId);
    const open = all.filter((s) => s.status === 'open').slice(0, 100);
    const learningNow = all.filter((s) => s.status === 'accepted' && s.learning !== null).slice(0, 100);
    const names = await deps.profilesOf([...new Set([...open, ...learningNow].map((s) => s.person_id))]);
    const person = (s: SuggestionRow) => ({ id: s.person_id, name: names.get(s.person_id)?.name || 'Someone' });
    return {
      suggestions: open.map((s) => ({ id: s.id, speakerId: s.speaker_id, person: person(s) })),
      learning: learningNow.map((s) => ({
        id: s.id,
        speakerId: s.speaker_id,
        person: person(s),
        status: s.learning === 'failed' ? ('failed' as const) : ('pending' as const),
        error: s.learning === 'failed' ? s.learning_error : null,
      })),
    };
  };

  /** A voice to learn: the speaker must have turns and the meeting a recording (asked of the database, nothing decoded). */
  const checkLearnable = async (meetingId: string, speakerId: string): Promise<void> => {
    const source = await meetings.notesSource(meetingId);
    if (!source || !turnsBySpeaker(source.segments).has(speakerId)) throw notFound('Speaker');
    if (!(await meetings.transcriptionSource(meetingId))?.audioKey)
      throw new AppError('VALIDATION_FAILED', 'This meeting has no recording to learn a voice from.');
  };

  /**
   * Learning a voice (a consent given, a suggestion accepted) decodes the meeting's recording:
   * seconds of work, so a job does it and the request answers at once. A voice that cannot be
   * learned (the speaker says too little, the recording is gone) fails for good with the reason the
   * person who asked reads.
   */
  const learning = deps.jobs.define<LearningPayload, 'learning the voice'>({
    name: 'voice-learning',
    label: 'voice learning',
    payload: LearningPayload,
    stages: ['learning the voice'],
    keyOf: (p) => `${p.kind}:${p.id}`,
    concurrency: 1,
    maxAttempts: deps.maxAttempts,
    retryDelayMs: deps.retryDelayMs,
    classify: (error) =>
      error instanceof AppError ? { retryable: false, message: error.message } : { retryable: true, message: 'The recording could not be read.' },
    run: async ({ kind, id }, ctx) => {
      if (kind === 'sample') {
        const sample = await sampleById(db, id);
        // Deleted with its profile, or learned again already: nothing to do.
        if (!sample || sample.relearn_error !== null || sample.path === (await activeKey())) return;
        ctx.progress('learning the voice', null);
        const voice = await voiceOf(sample.meeting_id, sample.speaker_id, ctx.signal);
        await settleRelearning(db, id, sample.path, { path: voice.path, embedding: encode(voice.embedding) });
        return;
      }
      if (kind === 'consent') {
        const consent = await consentById(db, id);
        // Withdrawn (the profile deleted) or the account gone meanwhile: nothing to learn.
        if (!consent || consent.status !== 'accepted' || consent.learning !== 'pending') return;
        ctx.progress('learning the voice', null);
        const voice = await voiceOf(consent.meeting_id, consent.speaker_id, ctx.signal);
        // Asking for oneself without choosing a team keeps the profile's team; a teammate's acceptance chose one (or none).
        const teamId = consent.requested_by === consent.person_id ? (consent.team_id ?? undefined) : consent.team_id;
        await keepVoice(
          consent.person_id,
          teamId,
          { meetingId: consent.meeting_id, meetingTitle: consent.meeting_title, speakerId: consent.speaker_id, via: 'enrolment' },
          voice,
          (trx) => settleLearning(trx, 'consent', id, { learning: null }),
        );
        return;
      }
      const suggestion = await anySuggestion(db, id);
      if (!suggestion || suggestion.status !== 'accepted' || suggestion.learning !== 'pending') return;
      const [meeting, profile] = await Promise.all([meetings.transcriptHeader(suggestion.meeting_id), profileOf(db, suggestion.person_id)]);
      // The person deleted their profile meanwhile: the name stands, nothing of their voice is kept.
      if (!meeting || !profile) {
        await settleLearning(db, 'suggestion', id, { learning: null });
        return;
      }
      ctx.progress('learning the voice', null);
      const voice = await voiceOf(suggestion.meeting_id, suggestion.speaker_id, ctx.signal);
      await keepVoice(
        suggestion.person_id,
        undefined,
        { meetingId: suggestion.meeting_id, meetingTitle: meeting.title, speakerId: suggestion.speaker_id, via: 'suggestion' },
        voice,
        (trx) => settleLearning(trx, 'suggestion', id, { learning: null }),
      );
    },
    onSettled: async ({ kind, id }, outcome) => {
      if (outcome.status !== 'failed') return;
      if (kind === 'sample') {
        const sample = await sampleById(db, id);
        if (sample) await settleRelearning(db, id, sample.path, { error: `Could not learn this voice again: ${outcome.error}` });
        return;
      }
      const failed = { learning: 'failed' as const, error: `Could not learn this voice: ${outcome.error}` };
      await settleLearning(db, kind, id, failed);
    },
  });

  /**
   * A voice to learn, raised in the transaction of the decision that asks for it: the learning is
   * queued from its delivery, so a process dying after the decision still has it learned (or failed).
   */
  const learningRequested = (
    actorId: string,
    personId: string,
    teamId: string | null,
    request: LearningPayload & { kind: 'consent' | 'suggestion' },
  ): NewDomainEvent => ({
    type: 'voice.learning_requested',
    actorId,
    ownerId: personId,
    teamId,
    subject: { type: 'user', id: personId },
    payload: request,
  });

  return {
    /**
     * "This speaker is me" (the caller's consent recorded, their voice learned in a job) by anyone
     * who may read the meeting, its owner or a member of the team it is shared with; or, by the
     * meeting's owner only, a speaker named after a teammate (renamed now; their voice kept only
     * once they accept). A teammate must share a team with the owner.
     */
    enrol: async (
      callerId: string,
      meetingId: string,
      speakerId: string,
      body: EnrolVoiceBody,
    ): Promise<{ outcome: 'learning' | 'asked'; displayName: string }> => {
      const now = nowIso();
      if (body.who === 'me') {
        const meeting = await meetings.read(callerId, meetingId);
        if (!meeting || !meeting.speakers.some((s) => s.id === speakerId)) throw notFound('Speaker');
        await checkTeam(callerId, body.teamId);
        await allowLearning(callerId);
        await checkLearnable(meetingId, speakerId);
        const ownerId = await meetings.ownerOf(meetingId);
        if (!ownerId) throw notFound('Speaker');
        const displayName = await nameOf(callerId);
        const consentId = crypto.randomUUID();
        await deps.events.transaction(async (trx, raise) => {
          await insertConsent(trx, {
            id: consentId,
            person_id: callerId,
            requested_by: callerId,
            meeting_id: meetingId,
            meeting_title: meeting.title,
            speaker_id: speakerId,
            team_id: body.teamId ?? null,
            status: 'accepted',
            created_at: now,
            decided_at: now,
            learning: 'pending',
            learning_error: null,
          });
          raise(learningRequested(callerId, callerId, body.teamId ?? null, { kind: 'consent', id: consentId }));
          // The person says who the speaker is, in the owner's meeting too (as a voice profile's match
          // names them): with the consent, so neither is kept without the other.
          await meetings.renameSpeaker(ownerId, meetingId, speakerId, displayName, trx);
        });
        return { outcome: 'learning', displayName };
      }
      const ownerId = callerId;
      const meeting = await meetings.get(ownerId, meetingId);
      const speaker = meeting?.speakers.find((s) => s.id === speakerId);
      if (!meeting || !speaker) throw notFound('Speaker');
      if (body.userId === ownerId) throw new AppError('VALIDATION_FAILED', 'To name a speaker after yourself, choose “This speaker is me”.');
      const [ownerTeams, theirTeams] = await Promise.all([deps.teams.teamIdsOf(ownerId), deps.teams.teamIdsOf(body.userId)]);
      const shared = ownerTeams.filter((t) => theirTeams.includes(t));
      if (shared.length === 0) throw notFound('Teammate');
      // Before asking: a meeting without audio would be asked for nothing.
      await checkLearnable(meetingId, speakerId);
      const displayName = await nameOf(body.userId);
      // The team the request comes through: the meeting's, when the teammate is in it, else the first they share.
      const teamId = meeting.teamId && shared.includes(meeting.teamId) ? meeting.teamId : shared[0]!;
      // The name and the request commit together: a speaker named after a teammate is one they are asked about.
      await deps.events.transaction(async (trx, raise) => {
        await meetings.renameSpeaker(ownerId, meetingId, speakerId, displayName, trx);
        if (await pendingConsentFor(trx, body.userId, meetingId, speakerId)) return;
        const id = crypto.randomUUID();
        await insertConsent(trx, {
          id,
          person_id: body.userId,
          requested_by: ownerId,
          meeting_id: meetingId,
          meeting_title: meeting.title,
          speaker_id: speakerId,
          team_id: teamId,
          status: 'pending',
          created_at: now,
          decided_at: null,
          learning: null,
          learning_error: null,
        });
        raise({
          type: 'voice_consent.requested',
          actorId: ownerId,
          ownerId: body.userId,
          teamId,
          subject: { type: 'user', id: body.userId },
          payload: { consentId: id, meetingTitle: meeting.title },
        });
      });
      return { outcome: 'asked', displayName };
    },

    mine,

    /**
     * A voice.learning_requested event: its learning queued. Delivered at least once, harmlessly: one
     * job per decision is queued or running at a time, and a run finds a decision no longer waiting
     * to be learned (learned, failed, withdrawn) and does nothing.
     */
    learnRequested: (request: LearningPayload): Promise<void> => learning.enqueue(request),

    /**
     * Profiles' descriptions made otherwise than the active path makes them (at start: after an
     * upgrade of the built-in features, or a speaker-embedding model installed or removed): each
     * learned again from its meeting's recording by the voice-learning job; until then, and for good
     * when that recording or speaker is gone, they are not compared (Settings asks for a new sample).
     */
    relearnOutdated: async (): Promise<number> => {
      const samples = await samplesToRelearn(db, await activeKey());
      for (const sample of samples) await learning.enqueue({ kind: 'sample', id: sample.id });
      return samples.length;
    },

    /** The person accepts (their voice is then learned from the meeting, in a job) or declines; recorded either way. */
    answerRequest: async (userId: string, consentId: string, answer: { accept: boolean; teamId?: string | null | undefined }): Promise<MyVoiceResponse> => {
      const consent = await consentById(db, consentId);
      if (!consent || consent.person_id !== userId) throw notFound('Request');
      if (consent.status !== 'pending') throw new AppError('CONFLICT', 'This request was already answered.');
      if (!answer.accept) {
        await decideConsent(db, consentId, 'declined', consent.team_id, nowIso());
        return mine(userId);
      }
      const teamId = answer.teamId === undefined ? consent.team_id : answer.teamId;
      await checkTeam(userId, teamId);
      await allowLearning(userId);
      await deps.events.transaction(async (trx, raise) => {
        if (!(await decideConsent(trx, consentId, 'accepted', teamId, nowIso()))) throw new AppError('CONFLICT', 'This request was already answered.');
        raise(learningRequested(userId, userId, teamId, { kind: 'consent', id: consentId }));
      });
      return mine(userId);
    },

    setTeam: async (userId: string, teamId: string | null): Promise<MyVoiceResponse> => {
      await checkTeam(userId, teamId);
      if (!(await setProfileTeam(db, userId, teamId, nowIso()))) throw notFound('Voice profile');
      return mine(userId);
    },

    /** Deletes the caller's profile at once: no later meeting is matched against it. */
    remove: async (userId: string): Promise<MyVoiceResponse> => {
      await deps.events.transaction((trx) => deleteProfile(trx, userId, nowIso()));
      return mine(userId);
    },

    /** The open suggestions of a meeting the caller may read, and the accepted ones being learned. */
    suggestions: async (userId: string, meetingId: string): Promise<VoiceSuggestionsResponse> => {
      if (!(await meetings.read(userId, meetingId))) throw notFound('Meeting');
      return openSuggestions(meetingId);
    },

    /** The owner answers "Is this …?": yes names the speaker and teaches the profile this voice (a job); no is never asked again. */
    answerSuggestion: async (ownerId: string, meetingId: string, suggestionId: string, accept: boolean): Promise<VoiceSuggestionsResponse> => {
      const meeting = await meetings.get(ownerId, meetingId);
      const suggestion = meeting && (await suggestionById(db, meetingId, suggestionId));
      if (!meeting || !suggestion) throw notFound('Suggestion');
      if (suggestion.status !== 'open') throw new AppError('CONFLICT', 'This suggestion was already answered.');
      if (!accept) {
        await decideSuggestion(db, suggestion, 'rejected', nowIso());
        return openSuggestions(meetingId);
      }
      const profile = await profileOf(db, suggestion.person_id);
      if (!profile) {
        // The person deleted their profile meanwhile: nothing to name them from.
        await decideSuggestion(db, suggestion, 'rejected', nowIso());
        throw notFound('Voice profile');
      }
      await allowLearning(ownerId);
      const displayName = await nameOf(suggestion.person_id);
      await deps.events.transaction(async (trx, raise) => {
        if (!(await decideSuggestion(trx, suggestion, 'accepted', nowIso()))) throw new AppError('CONFLICT', 'This suggestion was already answered.');
        raise(learningRequested(ownerId, suggestion.person_id, null, { kind: 'suggestion', id: suggestion.id }));
        // With the answer: the name stands even when the voice cannot be learned (the job says why).
        await meetings.renameSpeaker(ownerId, meetingId, suggestion.speaker_id, displayName, trx);
      });
      return openSuggestions(meetingId);
    },

    /**
     * A new recording's speakers, before its transcript is stored (the transcription's port): each
     * compared with the profiles this meeting may use (the owner's own, and those whose person chose
     * a team the owner is in now). A close match is named, a weaker one asked of the owner ("Is this
     * …?", stored with the transcript). Nothing is decoded when there is no profile to compare with.
     */
    nameKnownVoices: (async ({ meetingId, ownerId }, describe): Promise<KnownVoices | undefined> => {
      const ownerTeams = await deps.teams.teamIdsOf(ownerId);
      const profiles = await candidateProfiles(db, ownerId, ownerTeams);
      // A teammate's profile only while they are still in the team they chose.
      const usable: string[] = [];
      for (const p of profiles) {
        if (p.user_id === ownerId || (p.team_id && (await deps.teams.teamIdsOf(p.user_id)).includes(p.team_id))) usable.push(p.user_id);
      }
      const kept = await samplesOf(db, usable);
      if (kept.length === 0) return undefined;
      const described = await describe();
      const thresholds = MATCH_THRESHOLDS[described.path.kind];
      const compare = voiceComparison(described.path.kind);
      // Only numbers made the way the recording's are: older descriptions wait to be learned again.
      const samples = kept.filter((s) => s.path === described.path.key);
      const people = usable.flatMap((userId) => {
        const voice = compare.pool(samples.filter((s) => s.user_id === userId).map((s) => JSON.parse(s.embedding) as number[]));
        return voice ? [{ userId, voice }] : [];
      });
      // Every speaker's closeness to every person, best first: each person names one speaker at most.
      const pairs = described.voices
        .flatMap((embedding, speaker) =>
          embedding ? people.map((p) => ({ speaker, userId: p.userId, similarity: compare.similarity(embedding, p.voice) })) : [],
        )
        .filter((pair) => pair.similarity >= thresholds.suggest)
        .sort((a, b) => b.similarity - a.similarity);
      const names = described.voices.map((): string | null => null);
      const namedPeople = new Set<string>();
      const questions = new Map<number, { personId: string; similarity: number }>();
      for (const pair of pairs) {
        if (names[pair.speaker] !== null || namedPeople.has(pair.userId)) continue;
        if (pair.similarity >= thresholds.name) {
          names[pair.speaker] = await nameOf(pair.userId);
          namedPeople.add(pair.userId);
        } else if (!questions.has(pair.speaker)) {
          // One question per speaker: the closest person.
          questions.set(pair.speaker, { personId: pair.userId, similarity: pair.similarity });
        }
      }
      const named = names.filter((n) => n !== null).length;
      deps.log.info({ meetingId, speakers: described.voices.length, profiles: people.length, named }, 'speakers matched against voice profiles');
      return {
        names,
        record: async (trx, speakerIds) => {
          const now = nowIso();
          for (const [speaker, question] of questions) {
            const speakerId = speakerIds[speaker];
            if (!speakerId) continue;
            await insertSuggestion(trx, {
              meeting_id: meetingId,
              speaker_id: speakerId,
              person_id: question.personId,
              similarity: question.similarity,
              status: 'open',
              created_at: now,
              decided_at: null,
              learning: null,
              learning_error: null,
            });
          }
        },
      };
    }) satisfies NameKnownVoices,

    /** Request Data Export: the person's profile as kept (the team, each description with its meeting and numbers) and their consents; null without either. */
    exportFor: async (userId: string) => {
      const [profile, samples, consents] = await Promise.all([profileOf(db, userId), samplesOf(db, [userId]), consentsOf(db, userId)]);
      if (!profile && consents.length === 0) return null;
      return {
        teamId: profile?.team_id ?? null,
        createdAt: profile?.created_at ?? null,
        voices: samples.map((s) => ({
          meetingId: s.meeting_id,
          meetingTitle: s.meeting_title,
          via: s.via,
          path: s.path,
          embedding: JSON.parse(s.embedding) as number[],
          addedAt: s.created_at,
        })),
        consents: consents.map((c) => ({
          meetingId: c.meeting_id,
          meetingTitle: c.meeting_title,
          requestedBy: c.requested_by,
          status: c.status,
          askedAt: c.created_at,
          decidedAt: c.decided_at,
        })),
      };
    },

    /** Delete All Data / Delete Account: the person's profile, consents and requests go. */
    removeFor: (userId: string) => removeAllOf(db, userId),
  };
}
