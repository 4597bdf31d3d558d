import crypto from 'node:crypto';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { z } from 'zod';
import type { Db } from '#server/db/create-db.ts';
import type { JobQueue } from '#server/jobs/job-queue.ts';
import type { MeetingsService } from '../meetings/meetings.service.ts';
import { extractJson, LlmCallError, type ChatClient } from '../notes/notes.service.ts';
import { anonymise } from './anonymise.ts';
import { recordScored, scoredHashes } from './emotion.repository.ts';

/**
 * "Anonymous Emotional Analysis" by the operator's emotion provider (EMOTION_API_URL: any
 * OpenAI-compatible chat-completions endpoint). Local sentiment is computed with every transcript as
 * before (meetings/sentiment.ts) and stays where the provider does not answer; this job then sends
 * the lines of a meeting whose option is on, anonymised (anonymise.ts: no names, emails, links or
 * numbers; no speakers, no audio), and stores the provider's scores over the local ones. Only lines
 * not yet scored as they read now are sent. The option is read again when the job runs and when the
 * scores are stored, so a meeting with it off sends nothing. Only meetings recorded or uploaded on
 * /record, where the person sees the option: an imported transcript and a sample carry the default
 * options without anyone having chosen them, and stay on this server.
 */
export type EmotionService = ReturnType<typeof createEmotionService>;

type EmotionDeps = {
  db: Db;
  jobs: JobQueue;
  meetings: Pick<MeetingsService, 'notesSource' | 'storeProviderSentiment'>;
  /** The provider's client (the notes' OpenAI-compatible client), its host and model. */
  provider: { chat: ChatClient; host: string; model: string };
  log: Logger;
};

const Payload = z.object({ meetingId: z.string(), ownerId: z.string() });
type Payload = z.infer<typeof Payload>;

/** Lines per request, and characters: a batch the smallest models answer whole. */
const BATCH_LINES = 40;
const BATCH_CHARS = 6_000;

const SYSTEM = [
  'You rate the tone of lines from a meeting transcript. Names, emails and numbers were removed; rate only how each line sounds.',
  'For every numbered line give a score from -1 (very negative) through 0 (neutral) to 1 (very positive).',
  'Answer with JSON only, one entry per line, in this shape: {"scores":[{"line":1,"score":0.4}]}',
].join('\n');

const AnswerSchema = z.object({ scores: z.array(z.object({ line: z.coerce.number().int(), score: z.coerce.number().min(-1).max(1) })) });

const hashOf = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

export function createEmotionService(deps: EmotionDeps) {
  const { meetings, provider, log } = deps;
  const providerKey = `${provider.host} ${provider.model}`;

  const scoreBatch = async (lines: string[], signal: AbortSignal): Promise<Map<number, number>> => {
    const user = `Lines:\n${lines.map((line, i) => `${i + 1}. ${line}`).join('\n')}`;
    const answer = await provider.chat.complete(
      {
        messages: [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: user },
        ],
        responseFormat: { type: 'json_object' },
        maxTokens: 40 + lines.length * 16,
      },
      signal,
    );
    const parsed = AnswerSchema.safeParse(extractJson(answer.content));
    if (!parsed.success) throw new LlmCallError('malformed', `The emotion provider (${provider.host}) answered with something that is not a list of scores.`);
    return new Map(parsed.data.scores.filter((s) => s.line >= 1 && s.line <= lines.length).map((s) => [s.line - 1, s.score]));
  };

  const job = deps.jobs.define<Payload>({
    name: 'emotion',
    label: 'emotional analysis',
    payload: Payload,
    stages: [],
    keyOf: (p) => p.meetingId,
    concurrency: 1,
    maxAttempts: 3,
    retryDelayMs: 30_000,
    run: async ({ meetingId }, { signal }) => {
      const source = await meetings.notesSource(meetingId);
      if (!source || source.status !== 'ready' || !source.options.emotionalAnalysis) return;
      if (source.source === 'import' || source.source === 'sample' || source.isSample) return;
      const names = source.speakers.flatMap((s) => (s.name ? [s.name] : []));
      const scored = await scoredHashes(deps.db, meetingId, providerKey);
      const wanted = source.segments
        .filter((s) => s.text.trim() !== '' && scored.get(s.id) !== hashOf(s.text))
        .map((s) => ({ segmentId: s.id, text: s.text, sent: anonymise(s.text, names) }));
      for (let start = 0; start < wanted.length;) {
        const batch: typeof wanted = [];
        let chars = 0;
        while (start < wanted.length && batch.length < BATCH_LINES && (batch.length === 0 || chars + wanted[start]!.sent.length <= BATCH_CHARS)) {
          chars += wanted[start]!.sent.length;
          batch.push(wanted[start++]!);
        }
        const scores = await scoreBatch(
          batch.map((b) => b.sent),
          signal,
        );
        const answered = batch.flatMap((b, i) => (scores.has(i) ? [{ segmentId: b.segmentId, text: b.text, score: scores.get(i)! }] : []));
        const stored = new Set(await meetings.storeProviderSentiment(meetingId, answered));
        await recordScored(
          deps.db,
          meetingId,
          providerKey,
          answered.filter((a) => stored.has(a.segmentId)).map((a) => ({ segmentId: a.segmentId, textHash: hashOf(a.text) })),
        );
      }
    },
    classify: (error) => ({
      retryable: error instanceof LlmCallError && ['unreachable', 'rate-limited', 'timeout', 'server'].includes(error.kind),
      message: error instanceof Error ? error.message : String(error),
    }),
    onSettled: async ({ meetingId }, outcome) => {
      if (outcome.status === 'failed')
        log.warn({ meetingId, error: outcome.error }, 'the emotion provider could not score a meeting: it keeps the sentiment computed here');
    },
  });

  return {
    /** A transcript stored or edited: its lines not yet scored as they read now go to the provider (when the meeting's option is on). */
    transcriptChanged: (meetingId: string, ownerId: string): Promise<void> => job.enqueue({ meetingId, ownerId }),
    /** The jobs' states (tests wait on them). */
    jobs: job,
  };
}
