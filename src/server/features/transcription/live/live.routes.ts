import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { LIVE_CLOSE, LIVE_PATH, LIVE_SAMPLE_RATE, LiveClientMessageSchema, type LiveAuthMessage, type LiveServerMessage } from '#shared/contracts/live.ts';
import type { Config } from '#server/config.ts';
import { bestEffort, failedBestEffort } from '#server/lib/best-effort.ts';
import { correctLine } from '#server/lib/vocabulary-corrections.ts';
import type { RateLimiters } from '#server/lib/rate-limit.ts';
import type { RealtimeHub } from '#server/lib/realtime/realtime-hub.ts';
import type { AuthContext } from '../../auth/auth-context.ts';
import { authenticateToken, sessionStillOpen } from '../../auth/authenticate.ts';
import { GoTrueError } from '../../auth/gotrue-error.ts';
import type { BillingService } from '../../billing/billing.service.ts';
import type { MeetingsService } from '../../meetings/meetings.service.ts';
import type { VocabularyService } from '../../vocabulary/vocabulary.service.ts';
import { MAX_BACKLOG_BYTES, startLiveSession, type LiveSession } from './live-session.ts';
import { createLiveSlots, type SlotHold } from './live-slots.ts';
import { isStreamingAvailable } from './streaming-recognizer.ts';

const AUTH_TIMEOUT_MS = 10_000;
/** No audio for this long while recording (a stalled tab) ends the session. */
const IDLE_TIMEOUT_MS = 2 * 60_000;
/** The browser answers pings by itself; one that misses a round has gone (closed lid, lost network). */
const HEARTBEAT_MS = 30_000;
/** The microphone's lines: the person recording (anyone else in the room is told apart in the saved transcript). */
const OWN_VOICE = 'You';
/**
 * An account's sessions hold recognisers paused for this many release times an hour at most (ten
 * minutes with the default two-minute release): enough for a few breaks in an hour's meeting, too
 * little for pausing and resuming over and over (or an account's sessions taking turns) to keep a
 * recogniser from the people in line. Past it a pause lets the recogniser go at once, as a long
 * pause does, and the live transcript resumes with the recording.
 */
const PAUSED_RELEASES_PER_HOUR = 5;

const send = (socket: WebSocket, message: LiveServerMessage) => {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
};

/**
 * What each channel's lines are called, by their source: the microphone is the person ("You"), a
 * shared tab is the call ("Shared tab", as the saved transcript names it). A live recogniser cannot
 * tell voices apart; the saved transcript's speakers replace these names once it is made.
 */
const speakersOf = (sources: string[]) => [OWN_VOICE, ...sources.slice(1)];

/**
 * GET /realtime/live (WebSocket): recognised lines of the recording in progress, streamed by the
 * browser as PCM. Nothing from here is stored: the meeting's transcription job makes the transcript.
 *
 * Recognisers are the scarce part (a process each): an account holds at most `sessionsPerAccount`
 * sessions, the server runs `recognizers` of them and further sessions wait in line (`waiting`, with
 * their place) rather than being refused, and a session paused longer than `pausedReleaseSeconds`
 * (counted from the pause, however often the browser repeats it), or longer than its account's
 * paused time left this hour, is closed so its recogniser goes to the next in line: the browser
 * reconnects when it resumes.
 */
export function registerLiveRoutes(
  app: FastifyInstance,
  deps: {
    meetings: MeetingsService;
    /** Whether the account's plan includes real-time transcription. */
    billing: Pick<BillingService, 'liveRefusal'>;
    /** The meeting's custom vocabulary: its near-misses corrected in each line, as the saved transcript's will be. */
    vocabulary?: Pick<VocabularyService, 'forMeeting'>;
    auth: AuthContext;
    hub: RealtimeHub;
    live: Config['transcription']['live'];
    rateLimiters: RateLimiters;
    log: FastifyBaseLogger;
  },
): void {
  const sessionsByUser = new Map<string, number>();
  const slots = createLiveSlots(deps.live.recognizers);
  const pausedReleaseMs = deps.live.pausedReleaseSeconds * 1000;
  const pausedBudgetMs = PAUSED_RELEASES_PER_HOUR * pausedReleaseMs;
  /**
   * Each account's paused time this hour, in milliseconds, counted as each pause ends: sessions of
   * one account paused at the same time may together pass it by one release each at most.
   */
  const pausedTime = deps.rateLimiters.limiter({ keyPrefix: 'livePausedMs', points: pausedBudgetMs, duration: 3600 });
  /** How long a pause starting now may keep its recogniser: the release time, or the account's paused time left. */
  const pauseAllowanceMs = async (userId: string) => Math.min(pausedReleaseMs, pausedBudgetMs - ((await pausedTime.get(userId))?.consumedPoints ?? 0));

  app.get(LIVE_PATH, { websocket: true }, (socket) => {
    let session: LiveSession | undefined;
    /** Released when the socket closes: this socket's count against its owner's limit. */
    let release: (() => void) | undefined;
    /** This socket's recogniser places, held or waited for. */
    let hold: SlotHold | undefined;
    /** Stops watching the sign-in session this socket was opened with (its end closes the socket). */
    let unwatch: (() => void) | undefined;
    let state: 'waiting' | 'authenticating' | 'queued' | 'starting' | 'streaming' | 'closed' = 'waiting';
    let channels = 1;
    /** Recording time the audio so far covers, until the recogniser starts (then its own clock keeps it). */
    let recordedMs = 0;
    /** Audio that came while the recogniser was starting, written to it once started. */
    let early: Buffer[] = [];
    /** The meeting's custom vocabulary, read as the session is authenticated. */
    let terms: readonly string[] = [];
    let idle: NodeJS.Timeout | undefined;
    let alive = true;
    /** The account, once authenticated. */
    let userId = '';
    /** When the pause under way began (performance.now()); undefined while recording. */
    let pausedSince: number | undefined;
    const close = (code: number, reason: string) => {
      if (socket.readyState === socket.OPEN) socket.close(code, reason);
    };
    const letGoWhilePaused = () => close(LIVE_CLOSE.idle, 'Paused: the live transcript resumes with the recording');
    /** Audio came (or the socket closed): the pause under way, if any, ends and its time counts against the account. */
    const endPause = () => {
      if (pausedSince === undefined) return;
      const pausedMs = Math.round(performance.now() - pausedSince);
      pausedSince = undefined;
      void bestEffort('live-paused-time', pausedTime.penalty(userId, pausedMs), deps.log);
    };
    const waitForAudio = () => {
      endPause();
      clearTimeout(idle);
      idle = setTimeout(() => close(LIVE_CLOSE.idle, 'No audio for two minutes'), IDLE_TIMEOUT_MS);
    };
    /** The recogniser is let go once the pause has lasted its allowance; a repeated pause keeps the first one's. */
    const waitWhilePaused = () => {
      if (pausedSince !== undefined) return;
      clearTimeout(idle);
      const since = performance.now();
      pausedSince = since;
      pauseAllowanceMs(userId).then(
        (allowanceMs) => {
          if (pausedSince !== since) return; // resumed or gone meanwhile
          idle = setTimeout(letGoWhilePaused, Math.max(0, allowanceMs - (performance.now() - since)));
        },
        (error: unknown) => {
          deps.log.warn({ err: error }, 'the paused time left to a live session’s account could not be read: its recogniser is let go');
          if (pausedSince === since) letGoWhilePaused();
        },
      );
    };
    const authTimer = setTimeout(() => close(LIVE_CLOSE.unauthenticated, 'Authenticate first'), AUTH_TIMEOUT_MS);
    socket.on('pong', () => (alive = true));
    const heartbeat = setInterval(() => {
      if (!alive) return socket.terminate();
      alive = false;
      socket.ping();
    }, HEARTBEAT_MS);

    const begin = async (speakers: string[]) => {
      if (state !== 'queued') return;
      state = 'starting';
      const started = await startLiveSession({
        speakers,
        offsetMs: recordedMs,
        // What was heard is not kept here: nothing of the live path is stored, and the saved transcript has its own Undo.
        onLine: (line) => send(socket, { type: 'line', line: terms.length > 0 ? { ...line, text: correctLine(line.text, terms).text } : line }),
        onFailure: (reason) => {
          send(socket, {
            type: 'error',
            message:
              reason === 'overloaded'
                ? 'The live transcript fell too far behind and stopped; the recording itself is not affected.'
                : 'The live transcript stopped; the recording itself is not affected.',
          });
          close(reason === 'overloaded' ? LIVE_CLOSE.busy : 1011, 'Recogniser stopped');
        },
      });
      if (state !== 'starting') return started.kill(); // the browser left while it started
      session = started;
      state = 'streaming';
      send(socket, { type: 'ready', speakers });
      for (const pcm of early) started.write(pcm);
      early = [];
    };

    const authenticate = async (message: Required<LiveAuthMessage>) => {
      state = 'authenticating';
      const caller = await authenticateToken(deps.auth, message.accessToken).catch((error: unknown) => {
        // Closed as unauthenticated either way (the browser renews its token); a failure that was not the token's is counted too.
        if (!(error instanceof GoTrueError)) failedBestEffort('socket-auth', error, deps.log);
        return undefined;
      });
      if (!caller) return close(LIVE_CLOSE.unauthenticated, 'Invalid or expired access token');
      if (state !== 'authenticating') return; // the browser left meanwhile
      unwatch = deps.hub.watchSession(caller.user.id, caller.session.id, () => close(LIVE_CLOSE.unauthenticated, 'Session ended'));
      if (!(await sessionStillOpen(deps.auth, caller.session.id))) return close(LIVE_CLOSE.unauthenticated, 'Session ended');
      const meeting = await deps.meetings.recording(caller.user.id, message.meetingId);
      if (!meeting) return close(LIVE_CLOSE.notFound, 'No meeting of yours is recording with this id');
      const speakers = speakersOf(meeting.audioSources);
      if (message.channels !== speakers.length) return close(LIVE_CLOSE.badMessage, `This recording has ${speakers.length} audio channel(s)`);
      const [refusal, vocabulary] = await Promise.all([
        deps.billing.liveRefusal(caller.user.id),
        deps.vocabulary ? deps.vocabulary.forMeeting({ ownerId: caller.user.id, teamId: meeting.teamId }) : [],
      ]);
      terms = vocabulary;
      if (state !== 'authenticating') return; // the browser left meanwhile
      if (refusal) {
        send(socket, { type: 'error', message: refusal });
        return close(LIVE_CLOSE.planLimit, 'Not included in the plan');
      }
      userId = caller.user.id;
      if ((sessionsByUser.get(userId) ?? 0) >= deps.live.sessionsPerAccount) return close(LIVE_CLOSE.busy, 'Too many live transcripts at once');
      if (!isStreamingAvailable()) {
        send(socket, { type: 'error', message: 'Live transcription is not available on this server (pocketsphinx is not installed).' });
        return close(LIVE_CLOSE.unavailable, 'Live transcription unavailable');
      }
      const requested = slots.request(speakers.length, {
        onGranted: () =>
          void begin(speakers).catch((error: unknown) => {
            deps.log.warn({ err: error }, 'live transcription could not start');
            close(1011, 'Live transcription could not start');
          }),
        onPosition: (position) => send(socket, { type: 'waiting', position }),
      });
      if (!requested) return close(LIVE_CLOSE.busy, 'The server is busy');
      hold = requested;
      sessionsByUser.set(userId, (sessionsByUser.get(userId) ?? 0) + 1);
      release = () => {
        const left = (sessionsByUser.get(userId) ?? 1) - 1;
        if (left > 0) sessionsByUser.set(userId, left);
        else sessionsByUser.delete(userId);
      };
      channels = speakers.length;
      recordedMs = message.offsetMs;
      clearTimeout(authTimer);
      waitForAudio();
      state = 'queued';
    };

    socket.on('message', (data, isBinary) => {
      const raw = Buffer.isBuffer(data) ? data : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]);
      if (isBinary && (state === 'streaming' || state === 'queued' || state === 'starting')) {
        if (raw.length % (2 * channels) !== 0) return close(LIVE_CLOSE.badMessage, 'Audio is 16-bit PCM, channels interleaved');
        waitForAudio();
        if (state === 'streaming') return session!.write(raw);
        // In line: not heard, but it moves the clock the recogniser will start on.
        if (state === 'queued') recordedMs += raw.length / 2 / channels / (LIVE_SAMPLE_RATE / 1000);
        else if (early.reduce((n, pcm) => n + pcm.length, raw.length) > MAX_BACKLOG_BYTES) close(LIVE_CLOSE.busy, 'The server is busy');
        else early.push(raw);
        return;
      }
      if (isBinary) {
        // Audio sent before "ready" is dropped; audio as the first message is a protocol error.
        if (state === 'waiting') close(LIVE_CLOSE.badMessage, 'The first message authenticates');
        return;
      }
      let message;
      try {
        message = LiveClientMessageSchema.parse(JSON.parse(raw.toString('utf8')));
      } catch {
        return close(LIVE_CLOSE.badMessage, 'Malformed message'); // not JSON, or not a message this socket takes
      }
      if (message.type === 'auth') {
        if (state !== 'waiting') return close(LIVE_CLOSE.badMessage, 'Already authenticated');
        void authenticate(message).catch((error: unknown) => {
          deps.log.warn({ err: error }, 'live transcription could not start');
          close(1011, 'Live transcription could not start');
        });
      } else if (state === 'waiting') {
        close(LIVE_CLOSE.badMessage, 'The first message authenticates');
      } else if (state === 'queued' || state === 'starting' || state === 'streaming') {
        session?.pause();
        waitWhilePaused();
      }
    });

    socket.on('close', () => {
      clearTimeout(authTimer);
      clearTimeout(idle);
      clearInterval(heartbeat);
      endPause();
      state = 'closed';
      release?.();
      unwatch?.();
      // The browser has gone: its last words have nowhere to go, so no need to wait for them.
      session?.kill();
      // After the kill: the next in line gets the places.
      hold?.release();
    });
  });
}
