import { createHash } from 'node:crypto';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { z } from 'zod';
import {
  MODEL_FAILED_NOTICE,
  MODEL_UNSUPPORTED_NOTICE,
  NO_MODEL_NOTICE,
  NOTHING_FOUND_NOTICE,
  type AskBody,
  type AskCitation,
  type AskResponse,
} from '#shared/contracts/ask.ts';
import type { Db } from '#server/db/create-db.ts';
import type { JobQueue } from '#server/jobs/job-queue.ts';
import { AppError, notFound } from '#server/lib/app-error.ts';
import { bestEffort, failedBestEffort } from '#server/lib/best-effort.ts';
import type { RateLimiters } from '#server/lib/rate-limit.ts';
import type { MeetingReader, MeetingsService, SegmentInContext } from '../meetings/meetings.service.ts';
import type { ChatClient } from '../notes/notes.service.ts';
import { embeddedRevisions, forEachEmbeddingBatch, saveEmbeddings, storedHashes } from './ask.repository.ts';
import { cosine, EmbeddingsError, type EmbeddingsClient } from './embeddings-client.ts';
import { askModel, promptLines, type CheckedSentence } from './llm-answer.ts';
import { createTopN, questionWords, reciprocalRankFusion } from './retrieval.ts';

/** Candidates each ranking contributes to the fusion. */
const CANDIDATES = 50;
/** Passages (a segment with a neighbour either side) the model reads. */
const MODEL_PASSAGES = 8;
/** Moments shown when there is no model's answer. */
const SHOWN_PASSAGES = 5;
/** Meetings whose embeddings a question may queue for catching up (the rest on later questions). */
const CATCH_UP_PER_QUESTION = 50;
/** Texts sent to the embeddings server in one request. */
const EMBED_BATCH = 32;

/** Questions one person may ask per minute: each can cost a model call and an embeddings call. */
export const ASK_RATE_LIMIT = { points: 20, duration: 60 } as const;

type AskDeps = {
  db: Db;
  jobs: JobQueue;
  meetings: MeetingsService;
  log: Logger;
  /** The notes' LLM (NOTES_LLM_*), unless the installation chose local notes; without it Ask shows passages. */
  chat: ChatClient | undefined;
  /** ASK_EMBEDDINGS_*: fused with the index's ranking when set. */
  embeddings: EmbeddingsClient | undefined;
  /** The server's rate-limit port, and this installation's questions per person (ASK_RATE_LIMIT unless set). */
  rateLimiters: RateLimiters;
  rateLimit?: { points: number; duration: number };
};

const EmbedPayload = z.object({ meetingId: z.string() });
type EmbedPayload = z.infer<typeof EmbedPayload>;

const hashOf = (text: string) => createHash('sha256').update(text).digest('base64url');
/** What a segment's vector is computed from: who said it and what (a question often names the speaker). */
const embeddedText = (speaker: string | null, text: string) => (speaker ? `${speaker}: ${text}` : text);

export type AskService = ReturnType<typeof createAskService>;

/**
 * Ask (issue 14): a question over the meetings a person may read, or one of them. Retrieval ranks
 * transcript segments with the search index (bm25 / ts_rank, through the meetings service, which
 * decides what the person may read) and, when an embeddings endpoint is configured, by cosine
 * similarity of stored segment embeddings, fused by reciprocal rank. With the notes' LLM the answer
 * is a few checked, cited sentences; without it, the best moments themselves.
 */
export function createAskService(deps: AskDeps) {
  const { db, meetings, log } = deps;
  const limiter = deps.rateLimiters.limiter({ ...(deps.rateLimit ?? ASK_RATE_LIMIT), keyPrefix: 'ask' });

  const embedJob = deps.jobs.define<EmbedPayload>({
    name: 'ask-embeddings',
    label: 'Ask embeddings',
    payload: EmbedPayload,
    stages: [],
    keyOf: (p) => p.meetingId,
    concurrency: 1,
    maxAttempts: 3,
    retryDelayMs: 30_000,
    run: async ({ meetingId }, { signal }) => {
      const client = deps.embeddings;
      if (!client) return;
      const source = await meetings.notesSource(meetingId);
      if (!source || source.status !== 'ready') return;
      const names = new Map(source.speakers.map((s) => [s.id, s.name ?? s.label]));
      const stored = await storedHashes(db, meetingId, client.model);
      const wanted = source.segments.map((s) => {
        const text = embeddedText(s.speakerId ? (names.get(s.speakerId) ?? null) : null, s.text);
        return { segmentId: s.id, text, textHash: hashOf(text) };
      });
      const missing = wanted.filter((w) => stored.get(w.segmentId) !== w.textHash);
      const fresh: { segmentId: string; textHash: string; vector: Float32Array }[] = [];
      for (let i = 0; i < missing.length; i += EMBED_BATCH) {
        const batch = missing.slice(i, i + EMBED_BATCH);
        const vectors = await client.embed(
          batch.map((b) => b.text),
          signal,
        );
        batch.forEach((b, j) => fresh.push({ segmentId: b.segmentId, textHash: b.textHash, vector: vectors[j]! }));
      }
      await saveEmbeddings(db, meetingId, client.model, source.transcriptRevision, fresh, new Set(wanted.map((w) => w.segmentId)));
    },
    classify: (error) => ({ retryable: error instanceof EmbeddingsError, message: error instanceof Error ? error.message : String(error) }),
    onSettled: async ({ meetingId }, outcome) => {
      if (outcome.status === 'failed')
        log.warn({ meetingId, error: outcome.error }, 'a meeting could not be embedded for Ask: its questions use the search index alone');
    },
  });

  /** Queues the embeddings of the meetings whose stored revision is not their transcript's (new, edited, or another model). */
  const catchUp = async (readable: { id: string; transcriptRevision: number }[], model: string) => {
    const embedded = await embeddedRevisions(
      db,
      readable.map((m) => m.id),
      model,
    );
    const stale = readable.filter((m) => embedded.get(m.id) !== m.transcriptRevision).slice(0, CATCH_UP_PER_QUESTION);
    for (const m of stale) await embedJob.enqueue({ meetingId: m.id });
  };

  /** The segments nearest the question by cosine, best first, scanning the stored embeddings a batch of meetings at a time. */
  const semanticRank = async (question: string, meetingIds: string[], client: EmbeddingsClient): Promise<string[]> => {
    const [query] = await client.embed([question]);
    const top = createTopN<string>(CANDIDATES);
    await forEachEmbeddingBatch(db, meetingIds, client.model, (batch) => {
      for (const e of batch) top.offer(e.segmentId, cosine(query!, e.vector));
    });
    return top.best();
  };

  /** Ranked segment ids for the question: the index's ranking, fused with the embeddings' when they answer. */
  const retrieve = async (reader: MeetingReader, question: string, meetingId: string | undefined): Promise<{ ids: string[]; usedEmbeddings: boolean }> => {
    const index = await meetings.askRead.rank(reader, questionWords(question), { meetingId, limit: CANDIDATES });
    const ids = index.map((r) => r.segmentId);
    const client = deps.embeddings;
    if (!client) return { ids, usedEmbeddings: false };
    try {
      const readable = await meetings.askRead.meetings(reader, meetingId);
      await bestEffort('ask-embeddings-queue', catchUp(readable, client.model), log);
      const semantic = await semanticRank(
        question,
        readable.map((m) => m.id),
        client,
      );
      if (semantic.length === 0) return { ids, usedEmbeddings: false };
      return { ids: reciprocalRankFusion([ids, semantic]), usedEmbeddings: true };
    } catch (error) {
      // The embeddings server is an aid, never a dependency: a failure answers from the index alone.
      failedBestEffort('ask-embeddings', error, log);
      return { ids, usedEmbeddings: false };
    }
  };

  const citationOf = (p: {
    meetingId: string;
    meetingTitle: string;
    segmentId: string;
    startMs: number;
    speaker: string | null;
    text: string;
  }): AskCitation => ({
    meetingId: p.meetingId,
    meetingTitle: p.meetingTitle,
    segmentId: p.segmentId,
    startMs: Math.max(0, Math.round(p.startMs)),
    speaker: p.speaker,
    text: p.text,
  });

  /** The best moments, grouped by meeting (meetings in the order of their best moment). */
  const passagesAnswer = (passages: SegmentInContext[], notice: string): AskResponse => {
    const shown = passages.slice(0, SHOWN_PASSAGES);
    const order = [...new Set(shown.map((p) => p.meetingId))];
    const grouped = order.flatMap((id) => shown.filter((p) => p.meetingId === id));
    if (grouped.length === 0) return { mode: 'passages', answer: NOTHING_FOUND_NOTICE, sentences: [], citations: [], notice: NOTHING_FOUND_NOTICE };
    return { mode: 'passages', answer: notice, sentences: [], citations: grouped.map(citationOf), notice };
  };

  return {
    /** Queues a meeting's embeddings once its transcript is stored (the transcript-ready hand-off); nothing without an embeddings endpoint. */
    transcriptReady: async (meetingId: string): Promise<void> => {
      if (deps.embeddings) await embedJob.enqueue({ meetingId });
    },
    /** The embeddings jobs' states (tests and the bench wait on them). */
    embeddingJobs: embedJob,

    /**
     * Answers a question; `onText` hears the answer's text as it is ready (the streamed variant).
     * Throws 404 for a meeting the caller may not read and 429 past the rate limit, before any text.
     */
    ask: async (userId: string, body: AskBody, onText?: (text: string) => void, signal: AbortSignal = new AbortController().signal): Promise<AskResponse> => {
      const allowance = await limiter.consume(userId);
      if (!allowance.allowed) throw new AppError('RATE_LIMITED', `Too many questions; try again in ${Math.ceil(allowance.msBeforeNext / 1000)} s.`);
      if (body.meetingId !== undefined && !(await meetings.read(userId, body.meetingId))) throw notFound('Meeting');
      const reader = await meetings.readerOf(userId);
      const { ids } = await retrieve(reader, body.question, body.meetingId);
      let spoken = 0;
      const passages = await meetings.askRead.inContext(reader, ids.slice(0, Math.max(MODEL_PASSAGES, SHOWN_PASSAGES)), 1);
      if (!deps.chat || passages.length === 0) {
        const answer = passagesAnswer(passages, NO_MODEL_NOTICE);
        onText?.(answer.answer);
        return answer;
      }
      const { prompt, lines } = promptLines(passages.slice(0, MODEL_PASSAGES));
      let answered: { kept: CheckedSentence[]; dropped: number };
      try {
        answered = await askModel(deps.chat, body.question, prompt, lines, signal, (sentence) => {
          onText?.(spoken === 0 ? sentence.text : ` ${sentence.text}`);
          spoken++;
        });
      } catch (error) {
        signal.throwIfAborted();
        // The person reads the passages with a notice that the model failed.
        failedBestEffort('ask-model', error, log);
        const answer = passagesAnswer(passages, MODEL_FAILED_NOTICE);
        onText?.(spoken === 0 ? answer.answer : `\n\n${answer.answer}`);
        return answer;
      }
      const { kept, dropped } = answered;
      if (dropped > 0) log.info({ dropped, kept: kept.length }, 'Ask: sentences whose citations did not hold were dropped');
      if (kept.length === 0) {
        const answer = passagesAnswer(passages, MODEL_UNSUPPORTED_NOTICE);
        onText?.(answer.answer);
        return answer;
      }
      const byId = new Map(lines.map((l) => [l.segmentId, l]));
      const titles = new Map(passages.map((p) => [p.meetingId, p.meetingTitle]));
      const citations: AskCitation[] = [];
      const indexOf = new Map<string, number>();
      const sentences = kept.map((sentence) => ({
        text: sentence.text,
        citations: sentence.segmentIds.map((id) => {
          if (!indexOf.has(id)) {
            const line = byId.get(id)!;
            indexOf.set(id, citations.length);
            citations.push(citationOf({ ...line, meetingTitle: titles.get(line.meetingId) ?? '' }));
          }
          return indexOf.get(id)!;
        }),
      }));
      return { mode: 'llm', answer: kept.map((s) => s.text).join(' '), sentences, citations, notice: null };
    },
  };
}
