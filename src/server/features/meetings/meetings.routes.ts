import type { MeetingDetail, MeetingProcessing } from '#shared/contracts/meetings.ts';
import { IDEMPOTENCY_KEY_REUSED_MESSAGE, meetingEndpoints, NOT_A_TEAM_MEMBER_MESSAGE, TRANSCRIPT_TOO_LARGE_MESSAGE } from '#shared/contracts/meetings.ts';
import { AppError, notFound } from '#server/lib/app-error.ts';
import type { EndpointRequest, Router } from '#server/http/endpoint-route.ts';
import { caller } from '../auth/api-guard.ts';
import type { BillingService } from '../billing/billing.service.ts';
import type { NotesService } from '../notes/notes.service.ts';
import type { SamplesService } from '../samples/samples.service.ts';
import type { TranscriptionService } from '../transcription/transcription.service.ts';
import type { ImportRefusal, MeetingRecord, MeetingsService } from './meetings.service.ts';

type MeetingsRouteDeps = {
  meetings: MeetingsService;
  /** Where the meetings still processing are. */
  transcription: Pick<TranscriptionService, 'processingOf'>;
  /** Each meeting's notes and their state; the dashboard's counts. */
  notes: Pick<NotesService, 'ofMeeting' | 'counts'>;
  /** The /demo tour's meeting, and whether a new account's samples are still being set up (the dashboard's stats). */
  samples: Pick<SamplesService, 'demoMeeting' | 'settingUp'>;
  /** The caller's plan: transcription hours a month and participants per meeting. */
  billing: Pick<BillingService, 'assertCanTranscribe' | 'assertParticipants'>;
};

/** A stored meeting as the API shows it, with its notes (the notes feature's) and processing stage. */
export async function presentMeeting(record: MeetingRecord, deps: Pick<MeetingsRouteDeps, 'transcription' | 'notes'>): Promise<MeetingDetail> {
  const { transcriptRevision, ...meeting } = record;
  const [notes, processing] = await Promise.all([
    deps.notes.ofMeeting(meeting.id, transcriptRevision, meeting.summary),
    meeting.status === 'processing' ? deps.transcription.processingOf([meeting.id]) : Promise.resolve(new Map<string, MeetingProcessing>()),
  ]);
  return { ...meeting, ...notes, processing: processing.get(meeting.id) ?? null };
}

/**
 * /api/v1/meetings: list with search and filters, read, create, edit, share with a team, delete.
 * Reads reach what the caller may read (their own meetings and their teams', meeting-access.ts);
 * changes reach their own meetings only.
 */
export function registerMeetingRoutes(route: Router, deps: MeetingsRouteDeps): void {
  const { meetings } = deps;
  const withProcessing = async <M extends { id: string; status: string; processing?: MeetingProcessing | null }>(items: M[]): Promise<M[]> => {
    const ids = items.filter((m) => m.status === 'processing').map((m) => m.id);
    if (ids.length === 0) return items;
    const processing = await deps.transcription.processingOf(ids);
    return items.map((m) => ({ ...m, processing: processing.get(m.id) ?? null }));
  };
  const detail = async (userId: string, id: string) => {
    const meeting = await meetings.read(userId, id);
    if (!meeting) throw notFound('Meeting');
    return presentMeeting(meeting, deps);
  };

  route(meetingEndpoints.list, async (request) => {
    const page = await meetings.list(caller(request).user.id, request.query);
    return { ...page, items: await withProcessing(page.items) };
  });
  route(meetingEndpoints.search, async (request) => {
    const matches = await meetings.search(caller(request).user.id, request.params.id, request.query.q);
    if (!matches) throw notFound('Meeting');
    return { matches };
  });
  /**
   * A create request with an Idempotency-Key: the first with the key runs and its answer is kept;
   * a retry with the same key and body gets that answer again, with another body 422, and while the
   * first is still running 409. A request that fails lets its key go, so a retry runs afresh.
   */
  const idempotent = async <T>(
    request: { headers: { 'idempotency-key'?: string | undefined }; body: unknown; log: { error: (details: object, message: string) => void } },
    userId: string,
    endpoint: 'create' | 'import',
    run: () => Promise<T>,
  ): Promise<T> => {
    const key = request.headers['idempotency-key'];
    if (key === undefined) return run();
    const ref = { userId, endpoint, key };
    const claim = await meetings.idempotency.claim(ref, request.body);
    if (claim.outcome === 'other-request') throw new AppError('IDEMPOTENCY_KEY_REUSED', IDEMPOTENCY_KEY_REUSED_MESSAGE);
    if (claim.outcome === 'in-progress') throw new AppError('CONFLICT', 'A request with this Idempotency-Key is still being answered. Try again in a moment.');
    if (claim.outcome === 'answered') return JSON.parse(claim.response) as T;
    let result: T;
    try {
      result = await run();
    } catch (error) {
      await meetings.idempotency
        .release(ref)
        .catch((releaseError: unknown) => request.log.error({ err: releaseError }, 'an Idempotency-Key could not be let go'));
      throw error;
    }
    await meetings.idempotency.answer(ref, meetingEndpoints[endpoint].status, result);
    return result;
  };

  route(meetingEndpoints.create, async (request) => {
    const userId = caller(request).user.id;
    return idempotent(request, userId, 'create', async () => {
      await deps.billing.assertParticipants(userId, request.body.participants.length);
      await deps.billing.assertCanTranscribe(userId);
      const meeting = await meetings.create(userId, request.body);
      if (meeting === 'not-a-member') throw new AppError('FORBIDDEN', NOT_A_TEAM_MEMBER_MESSAGE);
      return presentMeeting(meeting, deps);
    });
  });
  route(meetingEndpoints.import, async (request) => idempotent(request, caller(request).user.id, 'import', () => importMeeting(request)));
  const importMeeting = async (request: EndpointRequest<typeof meetingEndpoints.import>) => {
    const ownerId = caller(request).user.id;
    await deps.billing.assertCanTranscribe(ownerId);
    const result = await meetings.importTranscript(ownerId, request.body);
    if (!('meeting' in result)) throw importError(result);
    return presentMeeting(result.meeting, deps);
  };
  // Public: the sample meeting behind the signed-out product tour (/demo).
  route(meetingEndpoints.demo, async () => deps.samples.demoMeeting());
  route(meetingEndpoints.stats, async (request) => {
    const ownerId = caller(request).user.id;
    const [stats, insights, samplesSettingUp] = await Promise.all([meetings.stats(ownerId), deps.notes.counts(ownerId), deps.samples.settingUp(ownerId)]);
    return { ...stats, samplesSettingUp, insights };
  });
  // Registered before /:id so the literal path wins.
  route(meetingEndpoints.removeSamples, async (request) => ({ deleted: await meetings.removeSamples(caller(request).user.id) }));
  route(meetingEndpoints.get, async (request) => detail(caller(request).user.id, request.params.id));
  route(meetingEndpoints.update, async (request) => {
    const ownerId = caller(request).user.id;
    const { teamId, ...changes } = request.body;
    if (changes.participants) await deps.billing.assertParticipants(ownerId, changes.participants.length);
    if (teamId !== undefined) {
      const shared = await meetings.shareWithTeam(ownerId, request.params.id, teamId);
      if (shared === 'not-found') throw notFound('Meeting');
      if (shared === 'not-a-member') throw new AppError('FORBIDDEN', NOT_A_TEAM_MEMBER_MESSAGE);
    }
    const changing = Object.values(changes).some((v) => v !== undefined);
    if (changing && !(await meetings.update(ownerId, request.params.id, changes))) throw notFound('Meeting');
    return detail(ownerId, request.params.id);
  });
  route(meetingEndpoints.updateSegment, async (request) => {
    const ownerId = caller(request).user.id;
    const { id, segmentId } = request.params;
    if (!(await meetings.updateSegment(ownerId, id, segmentId, request.body.text))) throw notFound('Transcript line');
    return detail(ownerId, id);
  });
  route(meetingEndpoints.undoCorrection, async (request) => {
    const ownerId = caller(request).user.id;
    const { id, correctionId } = request.params;
    if (!(await meetings.undoCorrection(ownerId, id, correctionId))) throw notFound('Correction');
    return detail(ownerId, id);
  });
  route(meetingEndpoints.renameSpeaker, async (request) => {
    const ownerId = caller(request).user.id;
    const { id, speakerId } = request.params;
    if (!(await meetings.renameSpeaker(ownerId, id, speakerId, request.body.displayName))) throw notFound('Speaker');
    return detail(ownerId, id);
  });
  route(meetingEndpoints.mergeSpeaker, async (request) => {
    const ownerId = caller(request).user.id;
    const { id, speakerId } = request.params;
    if (speakerId === request.body.intoSpeakerId) throw new AppError('VALIDATION_FAILED', 'A speaker cannot be merged into itself');
    if (!(await meetings.mergeSpeakers(ownerId, id, speakerId, request.body.intoSpeakerId))) throw notFound('Speaker');
    return detail(ownerId, id);
  });
  route(meetingEndpoints.assignSegments, async (request) => {
    const ownerId = caller(request).user.id;
    const { id } = request.params;
    if (!(await meetings.assignSegments(ownerId, id, request.body.segmentIds, request.body.speakerId))) throw notFound('Speaker or transcript line');
    return detail(ownerId, id);
  });
  route(meetingEndpoints.restoreSegmentSpeakers, async (request) => {
    const ownerId = caller(request).user.id;
    const { id } = request.params;
    if (!(await meetings.restoreSegmentSpeakers(ownerId, id, request.body.lines, request.body.removeSpeakerId))) throw notFound('Meeting');
    return detail(ownerId, id);
  });
  route(meetingEndpoints.splitSegment, async (request) => {
    const ownerId = caller(request).user.id;
    const { id, segmentId } = request.params;
    if (!(await meetings.splitSegment(ownerId, id, segmentId, request.body.at))) throw notFound('Transcript line');
    return detail(ownerId, id);
  });
  route(meetingEndpoints.joinSegments, async (request) => {
    const ownerId = caller(request).user.id;
    const { id, segmentId } = request.params;
    if (!(await meetings.joinSegments(ownerId, id, segmentId, request.body.nextSegmentId))) throw notFound('Transcript line');
    return detail(ownerId, id);
  });
  route(meetingEndpoints.speakerNames, async (request) => ({ names: await meetings.speakerNames(caller(request).user.id) }));
  route(meetingEndpoints.remove, async (request) => {
    const deleted = await meetings.remove(caller(request).user.id, request.params.id);
    if (deleted === 0) throw notFound('Meeting');
    return { deleted };
  });
}

/** "Line 12: expected a timestamp like …": the line a person fixes, also in `details` for clients. */
function importError(refusal: ImportRefusal): AppError {
  if ('tooLarge' in refusal) return new AppError('PAYLOAD_TOO_LARGE', TRANSCRIPT_TOO_LARGE_MESSAGE);
  if ('overQuota' in refusal) {
    const gb = Math.round((refusal.overQuota / 1024 ** 3) * 10) / 10;
    return new AppError(
      'PAYLOAD_TOO_LARGE',
      `This transcript does not fit in your ${gb} GB of storage. Delete meetings you no longer need to make room, then try again.`,
    );
  }
  if ('notAMember' in refusal) return new AppError('FORBIDDEN', NOT_A_TEAM_MEMBER_MESSAGE);
  const { line, message } = refusal.problem;
  // A problem of the whole file (too many lines) has no line to point at.
  if (line === undefined) return new AppError('VALIDATION_FAILED', message);
  return new AppError('VALIDATION_FAILED', `Line ${line}: ${message}`, { details: { line } });
}
