import { createHash } from 'node:crypto';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { LRUCache } from 'lru-cache';
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
import type { MeetingReader, MeetingsService, ReadyMeeting } from '../meetings/meetings.service.ts';
import type { AskNote, ChatClient } from '../notes/notes.service.ts';
import { embeddedRevisions, forEachEmbeddingBatch, saveEmbeddings, storedHashes, type StoredEmbedding } from './ask.repository.ts';
import { EmbeddingsError, type EmbeddingsClient } from './embeddings-client.ts';
import { cosineSimilarity } from '#server/lib/cosine-similarity.ts';
import { askModel, promptLines, rerankPassages, rewriteQuestion, type CheckedSentence } from './llm-answer.ts';
import {
  answeringFacts,
  buildMeetingIndex,
  factSentence,
  questionTerms,
  rankPassages,
  segmentsInContext,
  type FactAnswer,
  type MeetingIndex,
  type SegmentInContext,
} from './meeting-index.ts';
import { createTopN, questionWords, reciprocalRankFusion } from './retrieval.ts';

/** Candidates each ranking contributes to the fusion. */
const CANDIDATES = 50;
/** Passages (a segment with a neighbour either side) the model reads. */
const MODEL_PASSAGES = 8;
/** Moments shown when there is no model's answer. */
const SHOWN_PASSAGES = 5;
/**
 * The least share of a question's weight (its words by idf) one of the best moments must say for
 * them to answer it: below, the moments share only a common word with the question, and the answer
 * says nothing matches instead of citing them. Searching several meetings the bar is higher: the
 * best of many more passages says part of an unrelated question by chance more often (the Ask
 * bench's off-topic questions).
 */
const MIN_COVERAGE = { meeting: 0.25, across: 0.35 } as const;
/** Action items and decisions an answer about them gives at most. */
const FACTS = 3;
/** Passages the model re-ranks (ASK_LLM_RERANK). */
const RERANKED = 12;
/** Meetings whose embeddings a question may queue for catching up (the rest on later questions). */
const CATCH_UP_PER_QUESTION = 50;
/** Texts sent to the embeddings server in one request. */
const EMBED_BATCH = 32;
/**
 * Meetings a question across meetings indexes at most: past this many, the search index picks the
 * meetings with the most matching segments first, so a question's work does not grow with a
 * person's archive.
 */
const INDEXED_MEETINGS = 60;
/** Meetings' passage indexes kept in memory by this process (a one-hour meeting's is about a megabyte). */
const CACHED_INDEXES = 120;
/** Decoded embeddings kept in memory by this process (a one-hour meeting's, 1,000 segments of 384 floats, is 1.5 MB). */
const VECTOR_CACHE_BYTES = 128 * 1024 * 1024;
/** Meetings whose stored vectors are read in one query. */
const VECTOR_MEETINGS_PER_READ = 20;
/** Transcripts read from the database in one go when indexes are missing. */
const TRANSCRIPTS_PER_READ = 10;

/** Questions one person may ask per minute: each can cost a model call and an embeddings call. */
export const ASK_RATE_LIMIT = { points: 20, duration: 60 } as const;

type AskDeps = {
  db: Db;
  jobs: JobQueue;
  meetings: MeetingsService;
  /** The notes' items of these meetings (topics, key points, decisions, action items): a field of Ask's index. */
  notesOf?: (meetingIds: string[]) => Promise<Map<string, AskNote[]>>;
  log: Logger;
  /** The notes' LLM (NOTES_LLM_*), unless the installation chose local notes; without it Ask shows passages. */
  chat: ChatClient | undefined;
  /** ASK_EMBEDDINGS_*: fused with the index's ranking when set. */
  embeddings: EmbeddingsClient | undefined;
  /** The server's rate-limit port, and this installation's questions per person (ASK_RATE_LIMIT unless set). */
  rateLimiters: RateLimiters;
  rateLimit?: { points: number; duration: number };
  /** With `chat`: the question rewritten as search words first (ASK_LLM_REWRITE), the best passages re-ranked (ASK_LLM_RERANK). */
  llmSteps?: { rewrite: boolean; rerank: boolean };
};

const EmbedPayload = z.object({ meetingId: z.string() });
type EmbedPayload = z.infer<typeof EmbedPayload>;

const hashOf = (text: string) => createHash('sha256').update(text).digest('base64url');
/** What a segment's vector is computed from: who said it and what (a question often names the speaker). */
const embeddedText = (speaker: string | null, text: string) => (speaker ? `${speaker}: ${text}` : text);

export type AskService = ReturnType<typeof createAskService>;

/**
 * Ask (issue 14): a question over the meetings a person may read, or one of them. Retrieval ranks
 * passages of the conversation with Ask's own index of each meeting (meeting-index.ts: the meetings
 * routed first, then their passages, one citation per stretch of talk), built in memory from the
 * transcript and the notes read through the meetings and notes services (the meetings service
 * decides what the person may read) and, when an embeddings endpoint is configured, fused by
 * reciprocal rank with the cosine similarity of stored segment embeddings. With the notes' LLM the
 * answer is a few checked, cited sentences; without it, the best moments themselves.
 */
export function createAskService(deps: AskDeps) {
  const { db, meetings, log } = deps;
  const limiter = deps.rateLimiters.limiter({ ...(deps.rateLimit ?? ASK_RATE_LIMIT), keyPrefix: 'ask' });
  /**
   * Ask's passage indexes, by meeting and what they were built from: its transcript's revision, the
   * meeting's last change (title, date, summary) and its notes' items; any change builds anew.
   */
  const indexes = new LRUCache<string, MeetingIndex>({ max: CACHED_INDEXES });
  const keyOf = (m: { id: string; title: string; startedAt: string; updatedAt: string; transcriptRevision: number }, notes: AskNote[]) =>
    `${m.id}\n${m.transcriptRevision}\n${m.updatedAt}\n${m.startedAt}\n${m.title}\n${hashOf(JSON.stringify(notes))}`;

  /** Decoded segment vectors by model, meeting and embedded revision (an edit is a new revision). */
  const vectors = new LRUCache<string, StoredEmbedding[]>({
    maxSize: VECTOR_CACHE_BYTES,
    sizeCalculation: (list) =>
      Math.max(
        1,
        list.reduce((sum, e) => sum + e.vector.byteLength + 100, 0),
      ),
  });

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
  const catchUp = async (readable: { id: string; transcriptRevision: number }[], embedded: Map<string, number>) => {
    const stale = readable.filter((m) => embedded.get(m.id) !== m.transcriptRevision).slice(0, CATCH_UP_PER_QUESTION);
    for (const m of stale) await embedJob.enqueue({ meetingId: m.id });
  };

  /**
   * The segments nearest the question by cosine, best first. Each meeting's stored vectors are read
   * and decoded once per embedded revision and kept (up to VECTOR_CACHE_BYTES), a batch of meetings
   * at a time.
   */
  const semanticRank = async (question: string, meetingIds: string[], embedded: Map<string, number>, client: EmbeddingsClient): Promise<string[]> => {
    const [query] = await client.embed([question]);
    const keyOf = (id: string) => `${client.model}\n${id}\n${embedded.get(id)}`;
    const missing = meetingIds.filter((id) => embedded.has(id) && !vectors.has(keyOf(id)));
    for (let i = 0; i < missing.length; i += VECTOR_MEETINGS_PER_READ) {
      const slice = missing.slice(i, i + VECTOR_MEETINGS_PER_READ);
      const byMeeting = new Map<string, StoredEmbedding[]>(slice.map((id) => [id, []]));
      await forEachEmbeddingBatch(
        db,
        slice,
        client.model,
        (batch) => {
          for (const e of batch) byMeeting.get(e.meetingId)?.push(e);
        },
        slice.length,
      );
      for (const [id, list] of byMeeting) vectors.set(keyOf(id), list);
    }
    const top = createTopN<string>(CANDIDATES);
    for (const id of meetingIds) for (const e of vectors.get(keyOf(id)) ?? []) top.offer(e.segmentId, cosineSimilarity(query!, e.vector));
    return top.best();
  };

  /**
   * The passage indexes of the meetings a question searches, each read and built once per revision:
   * the reader's ready meetings (or the one asked about), at most INDEXED_MEETINGS of them, chosen by
   * the search index when there are more. Every read is scoped to what the reader may read.
   */
  const indexesFor = async (
    reader: MeetingReader,
    question: string,
    meetingId: string | undefined,
  ): Promise<{ readable: ReadyMeeting[]; searched: MeetingIndex[] }> => {
    let readable = await meetings.readyMeetings(reader, meetingId);
    if (readable.length > INDEXED_MEETINGS) {
      const hits = await meetings.rankSegments(reader, questionWords(question), { meetingId, limit: 1000 });
      const counts = new Map<string, number>();
      for (const hit of hits) counts.set(hit.meetingId, (counts.get(hit.meetingId) ?? 0) + 1);
      readable = readable
        .filter((m) => counts.has(m.id))
        .sort((a, b) => counts.get(b.id)! - counts.get(a.id)!)
        .slice(0, INDEXED_MEETINGS);
    }
    const notes = (await deps.notesOf?.(readable.map((m) => m.id))) ?? new Map<string, AskNote[]>();
    const notesOf = (id: string) => notes.get(id) ?? [];
    const missing = readable.filter((m) => !indexes.has(keyOf(m, notesOf(m.id))));
    for (let i = 0; i < missing.length; i += TRANSCRIPTS_PER_READ) {
      const transcripts = await meetings.readyTranscripts(
        reader,
        missing.slice(i, i + TRANSCRIPTS_PER_READ).map((m) => m.id),
      );
      for (const transcript of transcripts) {
        const items = notesOf(transcript.id);
        indexes.set(keyOf(transcript, items), buildMeetingIndex({ ...transcript, notes: items }));
      }
    }
    return { readable, searched: readable.flatMap((m) => indexes.get(keyOf(m, notesOf(m.id))) ?? []) };
  };

  /** Ranked segment ids for the question: Ask's passage ranking, fused with the embeddings' when they answer. */
  const retrieve = async (
    reader: MeetingReader,
    question: string,
    meetingId: string | undefined,
  ): Promise<{ ids: string[]; facts: FactAnswer[]; searched: MeetingIndex[]; usedEmbeddings: boolean }> => {
    const { readable, searched } = await indexesFor(reader, question, meetingId);
    const terms = questionTerms(question, new Date());
    const ranked = rankPassages(searched, terms, CANDIDATES);
    const facts = answeringFacts(searched, question, terms, FACTS);
    // The moments the tracker's and the register's items cite come first: they are what was agreed.
    const factIds = facts.map((f) => f.fact.segmentIds[0]!);
    const minCoverage = searched.length > 1 ? MIN_COVERAGE.across : MIN_COVERAGE.meeting;
    const relevant = ranked.slice(0, SHOWN_PASSAGES).some((c) => c.coverage >= minCoverage);
    const ids = [...new Set([...factIds, ...(relevant ? ranked.map((c) => c.segmentId) : [])])];
    const client = deps.embeddings;
    if (!client) return { ids, facts, searched, usedEmbeddings: false };
    try {
      const embedded = await embeddedRevisions(
        db,
        readable.map((m) => m.id),
        client.model,
      );
      await bestEffort('ask-embeddings-queue', catchUp(readable, embedded), log);
      const semantic = await semanticRank(
        question,
        readable.map((m) => m.id),
        embedded,
        client,
      );
      if (semantic.length === 0) return { ids, facts, searched, usedEmbeddings: false };
      // Without a calibrated similarity for any model, the embeddings' moments are kept: a question in other words finds them.
      return { ids: [...new Set([...factIds, ...reciprocalRankFusion([ids, semantic])])], facts, searched, usedEmbeddings: true };
    } catch (error) {
      // The embeddings server is an aid, never a dependency: a failure answers from the index alone.
      failedBestEffort('ask-embeddings', error, log);
      return { ids, facts, searched, usedEmbeddings: false };
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

  /**
   * The best moments, grouped by meeting (meetings in the order of their best moment); with the
   * action items and decisions that answer the question as sentences first, each citing its moment.
   */
  const passagesAnswer = (passages: SegmentInContext[], notice: string, facts: FactAnswer[] = []): AskResponse => {
    const shown = passages.slice(0, Math.max(SHOWN_PASSAGES, facts.length));
    const order = [...new Set(shown.map((p) => p.meetingId))];
    const grouped = order.flatMap((id) => shown.filter((p) => p.meetingId === id));
    if (grouped.length === 0) return { mode: 'passages', answer: NOTHING_FOUND_NOTICE, sentences: [], citations: [], notice: NOTHING_FOUND_NOTICE };
    const at = new Map(grouped.map((p, i) => [p.segmentId, i]));
    const sentences = facts.flatMap((f) => {
      const cited = at.get(f.fact.segmentIds[0]!);
      return cited === undefined ? [] : [{ text: factSentence(f), citations: [cited] }];
    });
    const answer = sentences.length > 0 ? sentences.map((s) => s.text).join(' ') : notice;
    return { mode: 'passages', answer, sentences, citations: grouped.map(citationOf), notice };
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
      let searchedFor = body.question;
      if (deps.chat && deps.llmSteps?.rewrite) {
        try {
          const words = await rewriteQuestion(deps.chat, body.question, signal);
          if (words) searchedFor = `${body.question} ${words}`;
        } catch (error) {
          signal.throwIfAborted();
          // The rewrite is an aid: the question is searched as asked.
          failedBestEffort('ask-rewrite', error, log);
        }
      }
      const retrieved = await retrieve(reader, searchedFor, body.meetingId);
      const { facts, searched } = retrieved;
      let { ids } = retrieved;
      if (deps.chat && deps.llmSteps?.rerank && ids.length > 1) {
        try {
          const top = segmentsInContext(searched, ids.slice(0, RERANKED), 1);
          const order = await rerankPassages(deps.chat, body.question, top, signal);
          ids = [...new Set([...ids.slice(0, facts.length), ...order, ...ids])];
        } catch (error) {
          signal.throwIfAborted();
          // A failed re-rank keeps the retrieval's order.
          failedBestEffort('ask-rerank', error, log);
        }
      }
      let spoken = 0;
      const passages = segmentsInContext(searched, ids.slice(0, Math.max(MODEL_PASSAGES, SHOWN_PASSAGES)), 1);
      if (!deps.chat || passages.length === 0) {
        const answer = passagesAnswer(passages, NO_MODEL_NOTICE, facts);
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
