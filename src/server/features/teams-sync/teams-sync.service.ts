import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { z } from 'zod';
import type { Db } from '#server/db/create-db.ts';
import type { JobContext, JobQueue } from '#server/jobs/job-queue.ts';
import { AppError } from '#server/lib/app-error.ts';
import { bestEffort } from '#server/lib/best-effort.ts';
import type { Clock } from '#server/lib/clock.ts';
import {
  createOAuthClient,
  createReplayGuard,
  openOAuthTokens,
  sealOAuthTokens,
  OAuthError,
  type OAuthClient,
  type OAuthTokens,
} from '#server/lib/oauth/oauth-client.ts';
import { OutboundError, outboundFetch, outboundStream } from '#server/lib/outbound/outbound-fetch.ts';
import type { RateLimiters } from '#server/lib/rate-limit.ts';
import type { SecretBox } from '#server/lib/secret-box.ts';
import { MAX_PARTICIPANTS, MAX_TITLE_LENGTH, MAX_TRANSCRIPT_IMPORT_BYTES } from '#shared/contracts/meetings.ts';
import { TEAMS_SYNC_RUN_STAGES, type TeamsSyncRunStage, type TeamsSyncState } from '#shared/contracts/teams-sync.ts';
import type { MeetingsService } from '../meetings/meetings.service.ts';
import type { RecordingsService } from '../recordings/recordings.service.ts';
import { createGraphClient, GraphError, type GraphClient } from './microsoft-graph.ts';
import {
  accountOf,
  dueAccounts,
  importedAmong,
  importedCount,
  recordImport,
  unfinishedRecordings,
  removeAccount,
  removeAllOf,
  saveAccount,
  updateAccount,
  updateTokens,
} from './teams-sync.repository.ts';

/**
 * Settings › Connected Accounts › Microsoft Teams, "sync meeting recordings". A person connects a
 * Microsoft account (Microsoft identity platform, authorization code with PKCE, through
 * lib/oauth); every hour (and on "Sync now") a job reads their calendar's Teams meetings through
 * Microsoft Graph — calendarView's online meetings → onlineMeetings by JoinWebUrl → transcripts and
 * recordings — and imports each transcript once (WebVTT, speakers kept) as a meeting whose
 * participants are the event's attendees. An import and its record here commit together, so a run
 * that stops half way (Graph throttling, a timeout, a restart) loses nothing and repeats nothing.
 */

export const MICROSOFT_SCOPES = [
  'OnlineMeetings.Read',
  'OnlineMeetingTranscript.Read.All',
  'OnlineMeetingRecording.Read.All',
  'Calendars.Read',
  'offline_access',
];
/** How often a connected account is synced, and how often the worker looks for those due. */
export const TEAMS_SYNC_INTERVAL_MS = 60 * 60_000;
const SWEEP_INTERVAL_MS = 60_000;
const SWEEP_BATCH = 20;
/** How far back a sync looks for meetings with a transcript. */
const LOOKBACK_MS = 30 * 86_400_000;
/** After a passing failure (Graph down, a timeout), the next try. */
const RETRY_SOON_MS = 5 * 60_000;
/** How long one recording's download may take. */
const RECORDING_DOWNLOAD_MS = 60 * 60_000;
/** Online meetings one run resolves at most (each costs three Graph requests). */
const MAX_ONLINE_MEETINGS = 200;
const MAX_PROBLEMS_SHOWN = 3;

export type MicrosoftSettings = Readonly<{
  app: Readonly<{ clientId: string; clientSecret: string; tenant: string }> | undefined;
  loginUrl: string;
  graphUrl: string;
  timeoutSeconds: number;
}>;

type TeamsSyncDeps = {
  db: Db;
  secrets: SecretBox;
  jobs: JobQueue;
  meetings: Pick<MeetingsService, 'importTranscript' | 'create' | 'get' | 'stats' | 'recordingUnreadable'>;
  /** A Teams recording without a transcript goes through Parley's own transcription, as an upload does. */
  recordings: Pick<RecordingsService, 'store' | 'accepts'>;
  /** UPLOAD_MAX_MB and STORAGE_QUOTA_GB: a recording fetched is held to what an upload may be. */
  limits: { maxRecordingBytes: number; quotaBytes: number };
  outbound: { allowPrivateNetworks: boolean };
  microsoft: MicrosoftSettings;
  /** Where Microsoft sends the browser back (registered with the app; shown in Settings). */
  redirectUri: string;
  /** Where finished sign-ins are remembered, so a replayed one is refused by every web process. */
  rateLimiters: RateLimiters;
  clock: Clock;
  log: Logger;
};

export type TeamsSyncService = ReturnType<typeof createTeamsSyncService>;

/** A Teams meeting of the calendar, as the sync needs it. */
type CalendarMeeting = { subject: string; start: Date; joinUrl: string; attendees: string[] };
type Artifact = { id: string; createdAt: Date; correlationId: string | null };
type Found = { onlineMeetingId: string; occurrences: CalendarMeeting[]; transcripts: Artifact[]; recordings: Artifact[] };
/** A recording to fetch: new, or one whose meeting still waits for it (a download a run did not finish). */
type RecordingWork = { onlineMeetingId: string; recording: Artifact; occurrence: CalendarMeeting | undefined; meetingId?: string; title?: string };

const tokensContext = (userId: string) => `teams_sync_accounts.tokens:${userId}`;
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const obj = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});
const quoted = (title: string) => `“${title}”`;
const minutes = (ms: number) => Math.max(1, Math.ceil(ms / 60_000));

/** Graph's date-times: ISO 8601, with up to seven decimals and, in calendar events, no zone (UTC asked for). */
function graphDate(value: unknown): Date | undefined {
  const text = str(value);
  if (!text) return undefined;
  const withZone = /[zZ]|[+-]\d{2}:?\d{2}$/.test(text) ? text : `${text}Z`;
  const at = new Date(withZone.replace(/(\.\d{3})\d+/, '$1'));
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/** The event's organizer and attendees as names (rooms and equipment left out), each once. */
function attendeesOf(event: Record<string, unknown>): string[] {
  const names: string[] = [];
  const seen = new Set<string>();
  const add = (person: unknown) => {
    const address = obj(obj(person).emailAddress);
    const email = str(address.address)?.trim().toLowerCase();
    const name = (str(address.name)?.trim() || email || '').slice(0, 100);
    const key = email || name.toLowerCase();
    if (!name || seen.has(key) || names.length >= MAX_PARTICIPANTS) return;
    seen.add(key);
    names.push(name);
  };
  add(event.organizer);
  for (const attendee of Array.isArray(event.attendees) ? event.attendees : []) if (obj(attendee).type !== 'resource') add(attendee);
  return names;
}

export function createTeamsSyncService(deps: TeamsSyncDeps) {
  const { db, secrets, log } = deps;
  const now = () => deps.clock.now();
  const app = deps.microsoft.app;
  const timeoutMs = deps.microsoft.timeoutSeconds * 1000;
  const guardedFetch = (url: string | URL | Request, init?: RequestInit, maxResponseBytes?: number) =>
    outboundFetch(
      url instanceof Request ? url.url : url,
      { ...(init as object), body: (init?.body ?? null) as string | null },
      { allowPrivateNetworks: deps.outbound.allowPrivateNetworks, timeoutMs, ...(maxResponseBytes ? { maxResponseBytes } : {}) },
    );
  const login = deps.microsoft.loginUrl.replace(/\/+$/, '');
  const microsoft: { oauth: OAuthClient; graph: GraphClient } | undefined = app && {
    oauth: createOAuthClient({
      provider: {
        id: 'microsoft',
        issuer: `${login}/${app.tenant}/v2.0`,
        authorizationEndpoint: `${login}/${app.tenant}/oauth2/v2.0/authorize`,
        tokenEndpoint: `${login}/${app.tenant}/oauth2/v2.0/token`,
        clientId: app.clientId,
        clientSecret: app.clientSecret,
        scopes: MICROSOFT_SCOPES,
        redirectUri: deps.redirectUri,
        // The person picks the account (one signed in to several gets asked which).
        authorizationParameters: { response_mode: 'query', prompt: 'select_account' },
        refreshParameters: { scope: MICROSOFT_SCOPES.join(' ') },
      },
      box: secrets,
      replayGuard: createReplayGuard(deps.rateLimiters, 'microsoft'),
      clock: deps.clock,
      fetch: guardedFetch as typeof fetch,
      allowInsecureRequests: login.startsWith('http:'),
      timeoutMs,
    }),
    // A transcript may be as large as a transcript import may be; Graph's JSON pages are far smaller.
    graph: createGraphClient({
      baseUrl: deps.microsoft.graphUrl,
      fetch: (url, init) => guardedFetch(url, init, MAX_TRANSCRIPT_IMPORT_BYTES + 64 * 1024),
      // A recording streams into the blob store, within what an upload may hold and a longer time limit.
      streamFetch: (url, { maxBytes, ...init }) =>
        outboundStream(url, init, {
          allowPrivateNetworks: deps.outbound.allowPrivateNetworks,
          timeoutMs: Math.max(timeoutMs, RECORDING_DOWNLOAD_MS),
          maxResponseBytes: maxBytes ?? deps.limits.maxRecordingBytes,
        }),
      timeoutSeconds: deps.microsoft.timeoutSeconds,
    }),
  };

  const sealTokens = (userId: string, tokens: OAuthTokens) => sealOAuthTokens(secrets, tokens, tokensContext(userId));
  const openTokens = (userId: string, sealed: string): OAuthTokens => openOAuthTokens(secrets, sealed, tokensContext(userId));
  const unavailable = () =>
    new AppError(
      'CONFLICT',
      'Connect Microsoft account is not set up on this server: its administrator registers an app and sets MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET (Settings › Connected Accounts › Microsoft Teams shows how).',
    );

  /** A valid access token, refreshed (and stored again) when it is about to expire. */
  const accessFor = async (userId: string, sealed: string): Promise<string> => {
    if (!microsoft) throw unavailable();
    const { tokens, refreshed } = await microsoft.oauth.fresh(openTokens(userId, sealed));
    if (refreshed) await updateTokens(db, userId, sealTokens(userId, tokens));
    return tokens.accessToken;
  };

  const syncJob = deps.jobs.define<{ userId: string }, TeamsSyncRunStage>({
    name: 'teams-sync',
    label: 'Teams sync',
    payload: z.object({ userId: z.string().min(1).max(64) }),
    stages: TEAMS_SYNC_RUN_STAGES,
    keyOf: (p) => p.userId,
    concurrency: 1,
    maxAttempts: 3,
    retryDelayMs: 60_000,
    // Graph's failures are caught and shown by the run itself; what reaches here is unexpected.
    classify: (error) => ({
      retryable: true,
      message: `The Teams sync stopped on an unexpected error (${error instanceof Error ? error.message : String(error)}).`,
    }),
    run: ({ userId }, context) => runSync(userId, context),
    onSettled: async ({ userId }, outcome) => {
      if (outcome.status !== 'failed') return;
      await updateAccount(db, userId, {
        last_error: `${outcome.error} It runs again within the hour.`,
        next_sync_at: new Date(now().getTime() + TEAMS_SYNC_INTERVAL_MS).toISOString(),
      });
    },
  });

  /** The person's calendar's Teams meetings since `since`, resolved to online meetings with their transcripts and recordings. */
  const findMeetings = async (accessToken: string, since: Date, signal: AbortSignal, problems: string[]): Promise<Found[]> => {
    if (!microsoft) throw unavailable();
    const { graph } = microsoft;
    const query = [
      `startDateTime=${encodeURIComponent(since.toISOString())}`,
      `endDateTime=${encodeURIComponent(now().toISOString())}`,
      `$select=${['subject', 'start', 'end', 'isCancelled', 'isOnlineMeeting', 'onlineMeetingProvider', 'onlineMeeting', 'organizer', 'attendees'].join(',')}`,
      '$top=50',
    ].join('&');
    const events = await graph.list(accessToken, `/me/calendarView?${query}`, signal, { prefer: 'outlook.timezone="UTC"' });
    const byJoinUrl = new Map<string, CalendarMeeting[]>();
    for (const event of events) {
      const joinUrl = str(obj(event.onlineMeeting).joinUrl);
      const start = graphDate(obj(event.start).dateTime);
      if (!joinUrl || !start || event.isCancelled === true) continue;
      if (event.onlineMeetingProvider !== undefined && event.onlineMeetingProvider !== 'teamsForBusiness') continue;
      const occurrence = { subject: (str(event.subject) ?? '').trim().slice(0, MAX_TITLE_LENGTH), start, joinUrl, attendees: attendeesOf(event) };
      byJoinUrl.set(joinUrl, [...(byJoinUrl.get(joinUrl) ?? []), occurrence]);
    }
    const found: Found[] = [];
    for (const [joinUrl, occurrences] of [...byJoinUrl].slice(0, MAX_ONLINE_MEETINGS)) {
      const title = occurrences[0]?.subject || 'Teams meeting';
      // Refusals of one meeting (someone else's, or a policy) are told and the others still synced.
      const perMeeting = async <T>(what: string, work: () => Promise<T>): Promise<T | undefined> => {
        try {
          return await work();
        } catch (error) {
          if (error instanceof GraphError && (error.failure === 'forbidden' || error.failure === 'not_found')) {
            problems.push(`${quoted(title)}: ${what}: ${error.message}`);
            return undefined;
          }
          throw error;
        }
      };
      const filter = encodeURIComponent(`JoinWebUrl eq '${joinUrl.replaceAll("'", "''")}'`);
      const online = await perMeeting('the online meeting could not be read', () => graph.list(accessToken, `/me/onlineMeetings?$filter=${filter}`, signal));
      const onlineMeetingId = str(online?.[0]?.id);
      if (!onlineMeetingId) continue; // not a meeting Graph lets this person read
      const path = `/me/onlineMeetings/${encodeURIComponent(onlineMeetingId)}`;
      const transcripts = await perMeeting('its transcripts could not be listed', () => graph.list(accessToken, `${path}/transcripts`, signal));
      // Without its transcripts Parley cannot tell which recordings have one: those wait for a later sync.
      const recordings = transcripts && (await perMeeting('its recordings could not be listed', () => graph.list(accessToken, `${path}/recordings`, signal)));
      const artifacts = (items: Record<string, unknown>[] | undefined): Artifact[] =>
        (items ?? []).flatMap((item) => {
          const id = str(item.id);
          const createdAt = graphDate(item.createdDateTime);
          return id && createdAt && createdAt >= since ? [{ id, createdAt, correlationId: str(item.contentCorrelationId) ?? null }] : [];
        });
      found.push({ onlineMeetingId, occurrences, transcripts: artifacts(transcripts), recordings: artifacts(recordings) });
    }
    return found;
  };

  class AlreadyImported extends Error {}

  /** The occurrence of a series an artifact was made at: the one that started nearest to it. */
  const nearest = (occurrences: CalendarMeeting[], at: Date): CalendarMeeting | undefined =>
    occurrences.reduce<CalendarMeeting | undefined>(
      (best, o) => (!best || Math.abs(o.start.getTime() - at.getTime()) < Math.abs(best.start.getTime() - at.getTime()) ? o : best),
      undefined,
    );

  /**
   * A recording without a Teams transcript: a meeting waiting for its audio (recorded here with the
   * Graph id, in one transaction), then the recording streamed into the blob store and handed to
   * transcription as an upload is. A download that fails leaves the meeting waiting; the next sync
   * fetches it again.
   */
  const importRecording = async (
    userId: string,
    accessToken: string,
    work: RecordingWork,
    signal: AbortSignal,
  ): Promise<'imported' | 'skipped' | { problem: string }> => {
    if (!microsoft) throw unavailable();
    const title = work.title ?? (work.occurrence?.subject || 'Teams meeting');
    const { storageBytes } = await deps.meetings.stats(userId);
    const room = Math.min(deps.limits.maxRecordingBytes, deps.limits.quotaBytes - storageBytes);
    if (room <= 0) return { problem: `${quoted(title)}: your storage is full. Delete recordings you no longer need, then sync again.` };
    let meetingId = work.meetingId;
    if (!meetingId) {
      try {
        const created = await deps.meetings.create(
          userId,
          { title, source: 'upload', participants: work.occurrence?.attendees ?? [], startedAt: work.recording.createdAt.toISOString() },
          {
            alongside: async (trx, id) => {
              const row = {
                userId,
                graphId: `recording:${work.recording.id}`,
                onlineMeetingId: work.onlineMeetingId,
                correlationId: work.recording.correlationId,
                meetingId: id,
                title,
                at: now().toISOString(),
              };
              if (!(await recordImport(trx, row))) throw new AlreadyImported();
            },
          },
        );
        if (created === 'not-a-member') return 'skipped';
        meetingId = created.id;
      } catch (error) {
        if (error instanceof AlreadyImported) return 'skipped';
        throw error;
      }
    }
    const path = `/me/onlineMeetings/${encodeURIComponent(work.onlineMeetingId)}/recordings/${encodeURIComponent(work.recording.id)}/content`;
    let response: Response;
    try {
      response = await microsoft.graph.stream(accessToken, path, room, signal);
    } catch (error) {
      if (error instanceof GraphError && (error.failure === 'forbidden' || error.failure === 'not_found')) {
        // Said on the meeting too, which would otherwise wait for audio that is not coming.
        const reason = `Microsoft did not hand over the Teams recording: ${error.message}`;
        await deps.meetings.recordingUnreadable(meetingId, reason);
        return { problem: `${quoted(title)}: ${reason}` };
      }
      throw error;
    }
    // Teams records MP4; a download service may call it application/octet-stream.
    const type = response.headers.get('content-type') ?? '';
    const mime = deps.recordings.accepts(type) ? type : 'video/mp4';
    const body = response.body ? Readable.fromWeb(response.body as WebReadableStream<Uint8Array>) : Readable.from([]);
    try {
      const stored = await deps.recordings.store(meetingId, mime, body);
      if (!stored.ok) return { problem: `${quoted(title)}: the recording could not be used: ${stored.reason}` };
      return 'imported';
    } catch (error) {
      if (error instanceof OutboundError && error.reason === 'too_large') {
        const reason = `The Teams recording is larger than ${Math.round(room / 1024 / 1024)} MB, more than this server takes (UPLOAD_MAX_MB, and the storage left).`;
        await deps.meetings.recordingUnreadable(meetingId, reason);
        return { problem: `${quoted(title)}: ${reason}` };
      }
      if (error instanceof OutboundError && error.reason === 'timeout')
        throw new GraphError('timeout', 'Microsoft Graph did not finish sending a recording in time.', { cause: error });
      if (error instanceof OutboundError) throw new GraphError('unreachable', 'Microsoft Graph broke off sending a recording.', { cause: error });
      throw error;
    } finally {
      // A meeting deleted meanwhile reads none of it: the connection is let go.
      body.destroy();
    }
  };

  /** One transcript as a meeting; a problem of this one transcript is answered as words, the rest thrown. */
  const importOne = async (
    userId: string,
    accessToken: string,
    meeting: Found,
    transcript: Artifact,
    signal: AbortSignal,
  ): Promise<'imported' | 'skipped' | { problem: string }> => {
    if (!microsoft) throw unavailable();
    const occurrence = nearest(meeting.occurrences, transcript.createdAt);
    const title = occurrence?.subject || 'Teams meeting';
    let content: string;
    try {
      content = await microsoft.graph.text(
        accessToken,
        `/me/onlineMeetings/${encodeURIComponent(meeting.onlineMeetingId)}/transcripts/${encodeURIComponent(transcript.id)}/content?$format=text/vtt`,
        'text/vtt',
        signal,
      );
    } catch (error) {
      if (error instanceof GraphError && (error.failure === 'forbidden' || error.failure === 'not_found')) {
        return { problem: `${quoted(title)}: the transcript could not be read: ${error.message}` };
      }
      if (error instanceof GraphError && error.failure === 'too_large') {
        return { problem: `${quoted(title)}: its transcript is larger than Parley imports (${MAX_TRANSCRIPT_IMPORT_BYTES / 1024 / 1024} MB).` };
      }
      throw error;
    }
    const at = now().toISOString();
    try {
      const result = await deps.meetings.importTranscript(
        userId,
        { fileName: `${title.replace(/[\\/:*?"<>|]+/g, ' ').slice(0, 200)}.vtt`, content, title, startedAt: transcript.createdAt.toISOString() },
        {
          participants: occurrence?.attendees ?? [],
          alongside: async (trx, meetingId) => {
            const graphId = `transcript:${transcript.id}`;
            const row = { userId, graphId, onlineMeetingId: meeting.onlineMeetingId, correlationId: transcript.correlationId, meetingId, title, at };
            if (!(await recordImport(trx, row))) throw new AlreadyImported();
          },
        },
      );
      if ('meeting' in result) return 'imported';
      if ('tooLarge' in result) return { problem: `${quoted(title)}: its transcript is larger than Parley imports (5 MB).` };
      if ('overQuota' in result) return { problem: `${quoted(title)}: your storage is full. Delete recordings you no longer need, then sync again.` };
      if ('problem' in result) {
        const line = result.problem.line ? ` (line ${result.problem.line})` : '';
        return { problem: `${quoted(title)}: the transcript Teams made could not be read${line}: ${result.problem.message}` };
      }
      return { problem: `${quoted(title)}: the transcript could not be imported.` };
    } catch (error) {
      if (error instanceof AlreadyImported) return 'skipped';
      throw error;
    }
  };

  /** What a failed run tells the person, and when the worker tries again (never, until they reconnect, for a refused token). */
  const failure = (error: GraphError | OAuthError): { message: string; reconnect: boolean; retryInMs: number } => {
    if (error instanceof OAuthError) {
      if (error.kind === 'refused') {
        return {
          message: 'Microsoft no longer lets Parley read your meetings (the access was removed or has expired). Reconnect your Microsoft account.',
          reconnect: true,
          retryInMs: TEAMS_SYNC_INTERVAL_MS,
        };
      }
      return {
        message: `Microsoft’s sign-in service could not renew Parley’s access (${error.message}). The sync tries again in ${minutes(RETRY_SOON_MS)} minutes.`,
        reconnect: false,
        retryInMs: RETRY_SOON_MS,
      };
    }
    switch (error.failure) {
      case 'unauthorized':
        return { message: `${error.message} Reconnect your Microsoft account.`, reconnect: true, retryInMs: TEAMS_SYNC_INTERVAL_MS };
      case 'forbidden':
      case 'not_found':
        return {
          message: `${error.message} Parley needs the permissions it asked for when you connected (your calendar, your online meetings and their transcripts and recordings); in a work or school account an administrator may have to grant them. Then reconnect.`,
          reconnect: false,
          retryInMs: TEAMS_SYNC_INTERVAL_MS,
        };
      case 'throttled': {
        const wait = Math.min(TEAMS_SYNC_INTERVAL_MS, Math.max(60_000, error.retryAfterMs ?? RETRY_SOON_MS));
        return { message: `${error.message} The sync continues by itself in ${minutes(wait)} minutes.`, reconnect: false, retryInMs: wait };
      }
      default:
        return { message: `${error.message} The sync tries again in ${minutes(RETRY_SOON_MS)} minutes.`, reconnect: false, retryInMs: RETRY_SOON_MS };
    }
  };

  const summary = (problems: string[]) =>
    problems.length === 0
      ? null
      : `${problems.length === 1 ? 'One meeting was' : `${problems.length} meetings were`} not imported. ${problems.slice(0, MAX_PROBLEMS_SHOWN).join(' ')}${
          problems.length > MAX_PROBLEMS_SHOWN ? ` (and ${problems.length - MAX_PROBLEMS_SHOWN} more)` : ''
        }`;

  /** One sync of one person's account: the job's run. Graph's refusals end up on the card, never thrown. */
  async function runSync(userId: string, context: JobContext<TeamsSyncRunStage>): Promise<void> {
    const row = await accountOf(db, userId);
    if (!row || row.needs_reconnect === 1 || !microsoft) return;
    context.progress('finding meetings', null);
    const since = new Date(now().getTime() - LOOKBACK_MS);
    const problems: string[] = [];
    let imported = 0;
    try {
      const accessToken = await accessFor(userId, row.tokens);
      const found = await findMeetings(accessToken, since, context.signal, problems);
      const done = await importedAmong(
        db,
        userId,
        found.flatMap((m) => m.transcripts.map((t) => `transcript:${t.id}`)),
      );
      const todo = found.flatMap((meeting) =>
        meeting.transcripts.filter((t) => !done.has(`transcript:${t.id}`)).map((transcript) => ({ meeting, transcript })),
      );
      // Recordings of sessions Teams made no transcript of are transcribed here instead.
      const recordings: RecordingWork[] = found.flatMap((meeting) => {
        const withTranscript = new Set(meeting.transcripts.map((t) => t.correlationId).filter((c) => c !== null));
        return meeting.recordings
          .filter((r) => r.correlationId === null || !withTranscript.has(r.correlationId))
          .map((recording) => ({ onlineMeetingId: meeting.onlineMeetingId, recording, occurrence: nearest(meeting.occurrences, recording.createdAt) }));
      });
      const recorded = await importedAmong(
        db,
        userId,
        recordings.map((r) => `recording:${r.recording.id}`),
      );
      const unfinished: RecordingWork[] = [];
      // A meeting left waiting longer than that has been given up by the upload sweeper (failed).
      const recent = new Date(now().getTime() - 2 * 86_400_000).toISOString();
      for (const pending of await unfinishedRecordings(db, userId, recent)) {
        const meeting = await deps.meetings.get(userId, pending.meetingId);
        if (meeting?.status !== 'recording' || meeting.hasAudio) continue;
        unfinished.push({
          onlineMeetingId: pending.onlineMeetingId,
          recording: { id: pending.graphId.slice('recording:'.length), createdAt: new Date(meeting.startedAt), correlationId: null },
          occurrence: undefined,
          meetingId: meeting.id,
          title: meeting.title,
        });
      }
      const work = [
        ...todo.map((item) => ({ kind: 'transcript' as const, ...item })),
        ...unfinished.map((item) => ({ kind: 'recording' as const, item })),
        ...recordings.filter((r) => !recorded.has(`recording:${r.recording.id}`)).map((item) => ({ kind: 'recording' as const, item })),
      ];
      for (const [index, next] of work.entries()) {
        context.progress('importing', index / work.length, { part: index + 1, parts: work.length });
        const result =
          next.kind === 'transcript'
            ? await importOne(userId, accessToken, next.meeting, next.transcript, context.signal)
            : await importRecording(userId, accessToken, next.item, context.signal);
        if (result === 'imported') imported++;
        else if (result !== 'skipped') problems.push(result.problem);
      }
    } catch (error) {
      if (!(error instanceof GraphError) && !(error instanceof OAuthError)) throw error;
      const { message, reconnect, retryInMs } = failure(error);
      if (!reconnect && !(error instanceof OAuthError) && error.failure !== 'throttled') log.warn({ err: error, userId }, 'a Teams sync failed');
      await updateAccount(db, userId, {
        last_error: message,
        last_imported: imported,
        needs_reconnect: reconnect ? 1 : 0,
        next_sync_at: new Date(now().getTime() + retryInMs).toISOString(),
      });
      return;
    }
    const at = now();
    await updateAccount(db, userId, {
      last_synced_at: at.toISOString(),
      last_error: summary(problems),
      last_imported: imported,
      next_sync_at: new Date(at.getTime() + TEAMS_SYNC_INTERVAL_MS).toISOString(),
    });
  }

  const present = async (userId: string): Promise<TeamsSyncState> => {
    const row = await accountOf(db, userId);
    const job = row ? (await syncJob.states([userId])).get(userId) : undefined;
    const running = job && (job.state === 'queued' || job.state === 'running') ? job : undefined;
    return {
      available: microsoft !== undefined,
      redirectUri: deps.redirectUri,
      connected: row !== undefined,
      account: row?.account ?? null,
      needsReconnect: row?.needs_reconnect === 1,
      lastSyncedAt: row?.last_synced_at ?? null,
      lastError: row?.last_error ?? null,
      importedCount: row ? await importedCount(db, userId) : 0,
      lastImported: row?.last_imported ?? 0,
      sync: running
        ? {
            state: running.state === 'running' ? 'running' : 'queued',
            stage: running.stage,
            part: running.part,
            parts: running.parts,
          }
        : null,
    };
  };

  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<unknown> | undefined;
  const sweepDue = async (): Promise<void> => {
    for (const userId of await dueAccounts(db, now().toISOString(), SWEEP_BATCH)) await syncJob.enqueue({ userId });
  };

  return {
    state: (userId: string): Promise<TeamsSyncState> => present(userId),

    /** Connect Microsoft account, step one: where to send the person's browser. */
    start: (userId: string): { authorizationUrl: string } => {
      if (!microsoft) throw unavailable();
      return { authorizationUrl: microsoft.oauth.start({ userId }).authorizationUrl };
    },

    /** Step two: the code (or Microsoft's refusal) for tokens, kept sealed; who it is, and a first sync queued. */
    finish: async (userId: string, callback: { state: string; code?: string | undefined; error?: string | undefined }): Promise<TeamsSyncState> => {
      if (!microsoft) throw unavailable();
      const parameters = new URLSearchParams({ state: callback.state });
      if (callback.code) parameters.set('code', callback.code);
      if (callback.error) parameters.set('error', callback.error);
      let tokens: OAuthTokens;
      try {
        tokens = await microsoft.oauth.finish({ userId, callback: parameters });
      } catch (error) {
        if (!(error instanceof OAuthError)) throw error;
        if (error.kind === 'denied') {
          throw new AppError('VALIDATION_FAILED', 'Access was not granted at Microsoft, so nothing was connected. Connect again to allow it.', {
            cause: error,
          });
        }
        if (error.kind === 'invalid_state' || error.kind === 'refused') {
          throw new AppError('VALIDATION_FAILED', `${error.message}${error.kind === 'refused' ? ' Start connecting again.' : ''}`, { cause: error });
        }
        throw new AppError('ENGINE_UNAVAILABLE', `Microsoft’s sign-in could not be completed: ${error.message}`, { cause: error });
      }
      let calendar: Record<string, unknown>;
      try {
        calendar = await microsoft.graph.get(tokens.accessToken, '/me/calendar?$select=owner');
      } catch (error) {
        if (!(error instanceof GraphError)) throw error;
        const code = error.failure === 'forbidden' || error.failure === 'unauthorized' ? 'FORBIDDEN' : 'ENGINE_UNAVAILABLE';
        throw new AppError(code, `Your calendar could not be read to connect the account: ${error.message}`, { cause: error });
      }
      const owner = obj(calendar.owner);
      const name = str(owner.name)?.trim().slice(0, 100);
      const address = str(owner.address)?.trim().slice(0, 254);
      const account = name && address && name !== address ? `${name} (${address})` : (address ?? name ?? 'Microsoft account');
      const at = now().toISOString();
      await saveAccount(db, { user_id: userId, tokens: sealTokens(userId, tokens), account, next_sync_at: at, created_at: at });
      await syncJob.enqueue({ userId });
      return present(userId);
    },

    /** "Sync now": queued (one sync per person at a time); the card follows its progress. */
    sync: async (userId: string): Promise<TeamsSyncState> => {
      const row = await accountOf(db, userId);
      if (!row) throw new AppError('CONFLICT', 'No Microsoft account is connected.');
      if (row.needs_reconnect === 1) throw new AppError('CONFLICT', 'Microsoft no longer accepts Parley’s access: reconnect your Microsoft account first.');
      if (!microsoft) throw unavailable();
      await syncJob.enqueue({ userId });
      return present(userId);
    },

    /**
     * Forgets the tokens here (Microsoft's identity platform has no endpoint that revokes one
     * app's grant for a person: they remove it at myapps.microsoft.com or account.live.com).
     * Imported meetings stay, and are not imported again after a reconnection.
     */
    disconnect: async (userId: string): Promise<TeamsSyncState> => {
      await removeAccount(db, userId);
      return present(userId);
    },

    /** Delete All Data and Delete Account: the tokens and the record of what was imported. */
    removeFor: (userId: string): Promise<void> => removeAllOf(db, userId),

    /** The worker's schedule: every minute, the accounts due (hourly, or sooner after a passing failure) are queued. */
    startSchedule: () => {
      const tick = () => {
        sweeping ??= bestEffort('teams-sync-sweep', sweepDue, log).finally(() => {
          sweeping = undefined;
        });
      };
      tick();
      timer = setInterval(tick, SWEEP_INTERVAL_MS);
      timer.unref();
    },
    stopSchedule: async () => {
      clearInterval(timer);
      await sweeping;
    },
    /** Queues the syncs due now (the worker's tick; tests call it with a moved clock). */
    sweepDue,
  };
}
