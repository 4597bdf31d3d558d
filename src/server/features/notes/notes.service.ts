import type { FastifyBaseLogger as Logger } from 'fastify';
import { z } from 'zod';
import type { ActionItem, Topic } from '#shared/contracts/insights.ts';
import { NOTES_RUN_STAGES, type NotesRunStage } from '#shared/contracts/job-progress.ts';
import type { Insight, NotesResponse, NotesState, SummarySentence, UpdateNoteItemBody } from '#shared/contracts/notes.ts';
import type { MeetingNotesEvent } from '#shared/contracts/realtime.ts';
import type { StatusResponse } from '#shared/contracts/status.ts';
import type { Db } from '#server/db/create-db.ts';
import { inTransaction } from '#server/db/transaction.ts';
import type { EventRecorder } from '#server/events/domain-events.ts';
import type { JobQueue } from '#server/jobs/job-queue.ts';
import { bestEffort } from '#server/lib/best-effort.ts';
import type { MeetingsService } from '../meetings/meetings.service.ts';
import { NotesLlmError } from './engines/llm/llm-errors.ts';
import { findDueDate, meetingClock } from './due-dates.ts';
import type { NotesEngines } from './engines/select-notes-engine.ts';
import { followNames, followSpeakers, type SpeakerMerge } from './follow-speakers.ts';
import { spellAsVocabulary } from './vocabulary-spelling.ts';
import { itemsOf, keepReviewed, type NotesParts } from './notes-items.ts';
import { withinNotesBudget } from './notes-budget.ts';
import { createTrackerService } from './tracker/tracker.service.ts';
import {
  actionItemsOf,
  countsOf,
  itemOf,
  itemsOfMeeting,
  itemsOfMeetings,
  makesSummary,
  meetingsWithoutNotes,
  presentState,
  presentSummarySentences,
  replaceItems,
  reviewedItemsOf,
  setFollowedAssignees,
  speakerAssignedItemsOf,
  stateOf,
  storedSummarySentences,
  topicsOf,
  updateItem,
  writeState,
  type NewItem,
} from './notes.repository.ts';

export type { NewItem } from './notes.repository.ts';
/**
 * For Ask (features/ask), which answers with the notes' LLM and holds its answers to the notes' rule
 * of what a citation proves: one client, one check, not copies.
 */
export { checkCitedItem, indexTranscript } from './citations.ts';
export { createChatClient, type ChatClient } from './engines/llm/chat-client.ts';
/** For the emotion provider (features/emotion), which talks to an OpenAI-compatible endpoint with the same client. */
export { LlmCallError } from './engines/llm/llm-errors.ts';
export { extractJson } from './engines/llm/extract-json.ts';
export type { NotesTranscript } from './notes-types.ts';

type NotesDeps = {
  db: Db;
  jobs: JobQueue;
  meetings: MeetingsService;
  engines: NotesEngines;
  log: Logger;
  /** The time now: "today" for overdue action items, when follow-ups were found. */
  now: () => Date;
  /** The IANA time zone a person's dates are read in (Settings › Profile). */
  timeZoneOf: (userId: string) => Promise<string>;
  /** Settings › Recording "AI Summary Generation": notes written without being asked. */
  automaticNotesOf: (userId: string) => Promise<boolean>;
  /** The meeting's custom vocabulary (the vocabulary feature), so names are spelled right; none without it. */
  vocabularyOf?: (meeting: { ownerId: string; teamId: string | null }) => Promise<string[]>;
  maxAttempts: number;
  retryDelayMs: number;
  /** Notes stored and their `notes.ready` event commit together (notifications subscribe to it). */
  events: EventRecorder;
};

/** Whether a transcript gets its notes without being asked: the person's setting, and the meeting asks for a summary or action items. */
export const notesWantedAutomatically = (automatic: boolean, options: { summary: boolean; actionItems: boolean }): boolean =>
  automatic && (options.summary || options.actionItems);

/** The notes' name among the domain events' subscribers. */
export const NOTES_SUBSCRIBER = 'notes';

const NotesPayload = z.object({ meetingId: z.uuid(), ownerId: z.string(), explicit: z.boolean() });
type NotesPayload = z.infer<typeof NotesPayload>;

/** How often a run asks whether its meeting was deleted meanwhile. */
const DELETED_CHECK_MS = 1000;

/** State writes for progress at most this often: a local run has five parts, an LLM run dozens. */
const PROGRESS_INTERVAL_MS = 300;

/** The due date of words such as "by Friday", read on a meeting's calendar (the sample content's labels). */
export const resolveDueDate = (words: string, startedAt: string, timeZone: string) => findDueDate(words, meetingClock(startedAt, timeZone));

/**
 * A meeting's notes: written by a durable job on the queue ("notes") after its transcript is stored,
 * never holding the transcript back; their own state (queued, running part N of M, ready, failed with
 * a reason, off); items a person can edit, accept, tick done or dismiss; and the aggregates other
 * features show (the dashboard's counts, /insights' topics and action items); across meetings, the
 * action-item tracker and the decision register (tracker/).
 */
export type NotesService = ReturnType<typeof createNotesService>;

/** One item of a meeting's notes as Ask's index reads it. */
export type AskNote = Pick<Insight, 'kind' | 'text' | 'segmentIds' | 'assignee' | 'due' | 'status'>;

export function createNotesService(deps: NotesDeps) {
  const { db, meetings, log } = deps;

  /**
   * A meeting's items and notes state; given the meeting's summary as it is now, also the sentences
   * that make it with their citations (none once a person edited it).
   */
  const notesOf = async (
    meetingId: string,
    transcriptRevision: number,
    summary?: string | null,
  ): Promise<{ insights: Insight[]; notes: NotesState; summarySentences?: SummarySentence[] | null }> => {
    const [insights, state] = await Promise.all([itemsOfMeeting(db, meetingId), stateOf(db, meetingId)]);
    const sentences = summary === undefined ? {} : { summarySentences: presentSummarySentences(state, summary) };
    // A transcript just stored whose event has not reached the notes yet: its notes are as good as
    // queued, or off when the person turned them off (what the event's handler will write).
    if (!state && (await deps.events.pending(NOTES_SUBSCRIBER, { type: 'meeting', id: meetingId }))) {
      const source = await meetings.transcriptHeader(meetingId);
      const wanted = source !== undefined && notesWantedAutomatically(await deps.automaticNotesOf(source.ownerId), source.options);
      return { insights, notes: { ...presentState(undefined, transcriptRevision), status: wanted ? 'queued' : 'off' }, ...sentences };
    }
    return { insights, notes: presentState(state, transcriptRevision), ...sentences };
  };

  const announce = async (meetingId: string, ownerId: string) => {
    const header = await meetings.transcriptHeader(meetingId);
    if (!header) return;
    const event: MeetingNotesEvent = { type: 'meeting.notes', meetingId, notes: presentState(await stateOf(db, meetingId), header.transcriptRevision) };
    meetings.announce(meetingId, ownerId, event);
  };

  /** Action items and decisions are searchable with their meeting: the meetings feature indexes what is stored now. */
  const indexForSearch = async (meetingId: string): Promise<void> => {
    const items = await itemsOfMeeting(db, meetingId);
    await meetings.setSearchableNotes(
      meetingId,
      items.flatMap((item) =>
        (item.kind === 'action_item' || item.kind === 'decision') && item.status !== 'dismissed'
          ? [{ id: item.id, kind: item.kind, text: item.text, assignee: item.assignee, startMs: item.startMs }]
          : [],
      ),
    );
  };

  /** A person's edit, accept, tick or dismiss of one item of their meeting; undefined when not theirs or not there. */
  const updateNoteItem = async (ownerId: string, meetingId: string, itemId: string, body: UpdateNoteItemBody): Promise<NotesResponse | undefined> => {
    const meeting = await meetings.get(ownerId, meetingId);
    const item = meeting && (await itemOf(db, meetingId, itemId));
    if (!meeting || !item) return undefined;
    const timeZone = await deps.timeZoneOf(ownerId);
    await deps.events.transaction(async (trx, raise) => {
      const updated = await updateItem(trx, meetingId, itemId, {
        ...(body.text !== undefined ? { text: body.text } : {}),
        ...(body.assignee !== undefined ? { assignee: body.assignee } : {}),
        // A person's choice of another assignee is theirs: it no longer follows a speaker's name.
        ...(body.assignee !== undefined && body.assignee !== item.assignee ? { assignee_speaker_id: null, assignee_said: 0 } : {}),
        ...(body.due !== undefined ? { due: body.due, due_text: body.due === null ? null : dueWords(body.due, meeting.startedAt, timeZone) } : {}),
        ...(body.status !== undefined ? { status: body.status } : {}),
        // Accepted or edited by a person: no longer a suggestion.
        suggested: 0,
      });
      if (!updated || updated.kind !== 'action_item') return;
      const about = { actorId: ownerId, ownerId, teamId: meeting.teamId ?? null, subject: { type: 'meeting', id: meetingId } } as const;
      if (body.status === 'done' && item.status !== 'done') {
        raise({ ...about, type: 'action_item.completed', payload: { itemId, text: updated.text, assignee: updated.assignee } });
      } else {
        const changed = (['text', 'assignee', 'due', 'status'] as const).filter((field) => body[field] !== undefined && body[field] !== item[field]);
        if (changed.length === 0) return;
        raise({
          ...about,
          type: 'action_item.updated',
          payload: { itemId, text: updated.text, assignee: updated.assignee, due: updated.due, status: updated.status, changed },
        });
      }
    });
    await indexForSearch(meetingId);
    return { summary: meeting.summary, ...(await notesOf(meetingId, meeting.transcriptRevision, meeting.summary)) };
  };

  const tracker = createTrackerService({
    db,
    now: deps.now,
    timeZoneOf: deps.timeZoneOf,
    updateItem: updateNoteItem,
    readerOf: meetings.readerOf,
    nameSharers: meetings.nameSharers,
  });

  const jobs = deps.jobs.define<NotesPayload, NotesRunStage>({
    name: 'notes',
    label: 'note writing',
    payload: NotesPayload,
    stages: NOTES_RUN_STAGES,
    keyOf: (p) => p.meetingId,
    concurrency: 1,
    maxAttempts: deps.maxAttempts,
    retryDelayMs: deps.retryDelayMs,
    classify: (error) => {
      if (error instanceof NotesLlmError) return { retryable: error.retryable, message: error.message };
      const reason = error instanceof Error ? error.message : String(error);
      return { retryable: true, message: `The notes could not be written: ${reason}` };
    },
    run: async ({ meetingId, ownerId, explicit }, ctx) => {
      const source = await meetings.notesSource(meetingId);
      if (!source || source.status !== 'ready') return; // deleted, or transcribed again meanwhile: that run queues new notes
      const parts = partsOf(source.options, explicit);
      const engine = await deps.engines.resolve();
      await writeState(db, meetingId, { status: 'running', engine: engine.name, failure_reason: null, part: null, parts: null });
      await announce(meetingId, ownerId);
      let lastWrite = 0;
      // Progress writes in order, each announced; the notes wait for them before being stored, so
      // "running, part N of M" never reaches open pages after "ready" (or not at all).
      let progressWrites: Promise<unknown> = Promise.resolve();
      // A meeting deleted while its notes are written stops them (the engine's process or request is
      // ended) instead of holding the notes lane: asked of the database, since the deletion may come
      // from another process (ROLE=web).
      const deleted = new AbortController();
      const watch = setInterval(() => {
        void bestEffort('notes-deleted-check', meetings.exists(ownerId, meetingId), log, { meetingId }).then((exists) => {
          if (exists === false) deleted.abort();
        });
      }, DELETED_CHECK_MS);
      const vocabulary = deps.vocabularyOf ? await deps.vocabularyOf({ ownerId, teamId: source.teamId }) : [];
      let result: Awaited<ReturnType<typeof engine.generate>>;
      try {
        result = await engine.generate(
          {
            title: source.title,
            startedAt: source.startedAt,
            timeZone: await deps.timeZoneOf(ownerId),
            speakers: source.speakers,
            segments: withinNotesBudget(source.segments),
            vocabulary,
          },
          {
            signal: AbortSignal.any([ctx.signal, deleted.signal]),
            onProgress: (part, total) => {
              ctx.progress('writing notes', total > 0 ? part / total : null, part > 0 && total > 0 ? { part, parts: total } : undefined);
              if (Date.now() - lastWrite < PROGRESS_INTERVAL_MS && part < total) return;
              lastWrite = Date.now();
              progressWrites = progressWrites.then(() =>
                bestEffort('notes-progress', () => writeState(db, meetingId, { part, parts: total }).then(() => announce(meetingId, ownerId)), log, {
                  meetingId,
                }),
              );
            },
          },
        );
      } catch (error) {
        if (deleted.signal.aborted && !ctx.signal.aborted) return; // nothing left to write notes for
        throw error;
      } finally {
        clearInterval(watch);
      }
      await progressWrites;
      ctx.signal.throwIfAborted();
      if (!(await meetings.exists(ownerId, meetingId))) return; // deleted as the engine finished
      const starts = new Map(source.segments.map((s) => [s.id, s.startMs]));
      result = spellAsVocabulary(result, vocabulary);
      const speakers = new Map(source.segments.map((s) => [s.id, s.speakerId]));
      const fresh = itemsOf(
        result,
        parts,
        (id) => starts.get(id) ?? 0,
        (id) => speakers.get(id) ?? null,
      );
      // Speakers named while the engine wrote (a voice profile names the voices it knows as the
      // transcript arrives): their transcript.edited found no items to follow, so the items follow now.
      const current = await meetings.notesSource(meetingId);
      const items = keepReviewed(await reviewedItemsOf(db, meetingId), current ? followNames(fresh, current) : fresh);
      const summary = parts.summary ? result.summary.trim() || null : null;
      // The summary's sentences with where each was said, stored only with a summary they make.
      const sentences = result.summarySentences?.map((s) => ({ text: s.text, segmentIds: s.segmentIds, startMs: starts.get(s.segmentIds[0]!) ?? 0 }));
      const citedSummary = sentences && summary !== null && makesSummary(sentences, summary) ? sentences : undefined;
      await deps.events.transaction(async (trx, raise) => {
        const ids = await replaceItems(trx, meetingId, items, {
          ...(parts.summary ? { summary_sentences: storedSummarySentences(citedSummary) } : {}),
          status: 'ready',
          engine: result.engine,
          failure_reason: null,
          dropped_uncited: result.droppedUncited,
          local_fallback_parts: result.localFallbackParts,
          part: null,
          parts: null,
          source_revision: source.transcriptRevision,
          generated_at: new Date().toISOString(),
        });
        raise({
          type: 'notes.ready',
          actorId: explicit ? ownerId : null,
          ownerId,
          teamId: source.teamId,
          subject: { type: 'meeting', id: meetingId },
          payload: {
            explicit,
            summary,
            items: items.map((item) => ({ kind: item.kind, text: item.text, assignee: item.assignee ?? null, startMs: item.startMs })),
          },
        });
        items.forEach((item, i) => {
          const about = { actorId: null, ownerId, teamId: source.teamId, subject: { type: 'meeting', id: meetingId } } as const;
          const itemId = ids[i]!;
          if (item.kind === 'action_item') {
            raise({
              ...about,
              type: 'action_item.created',
              payload: { itemId, text: item.text, assignee: item.assignee ?? null, due: item.due ?? null, startMs: item.startMs },
            });
          } else if (item.kind === 'decision') {
            raise({ ...about, type: 'decision.recorded', payload: { itemId, text: item.text, startMs: item.startMs } });
          }
        });
      });
      await indexForSearch(meetingId);
      // A speaker named after the read above, its transcript.edited handled before these items were stored.
      await followSpeakerEdits(meetingId, ownerId);
      // The notes are stored whatever happens next: a failure here is logged and counted, never a failed notes job.
      await bestEffort('notes-follow-ups', tracker.notesStored({ meetingId, ownerId, startedAt: source.startedAt, segments: source.segments }), log, {
        meetingId,
      });
      if (parts.summary) await meetings.setSummary(meetingId, summary);
    },
    onSettled: async ({ meetingId, ownerId, explicit }, outcome) => {
      if (outcome.status === 'failed') {
        const teamId = (await meetings.transcriptHeader(meetingId))?.teamId ?? null;
        await deps.events.transaction(async (trx, raise) => {
          await writeState(trx, meetingId, { status: 'failed', failure_reason: outcome.error, part: null, parts: null });
          raise({
            type: 'notes.failed',
            actorId: null,
            ownerId,
            teamId,
            subject: { type: 'meeting', id: meetingId },
            payload: { explicit, reason: outcome.error },
          });
        });
      }
      if (outcome.status === 'retrying') await writeState(db, meetingId, { status: 'queued', failure_reason: null, part: null, parts: null });
      await announce(meetingId, ownerId);
    },
  });

  const followSpeakerEdits = async (meetingId: string, ownerId: string, merged?: SpeakerMerge): Promise<void> => {
    const items = await speakerAssignedItemsOf(db, meetingId);
    if (items.length === 0) return;
    const source = await meetings.notesSource(meetingId);
    if (!source) return;
    const changes = followSpeakers(items, source, merged);
    if (changes.length === 0) return;
    await setFollowedAssignees(db, meetingId, changes);
    await indexForSearch(meetingId);
    await announce(meetingId, ownerId);
  };

  const queue = async (meetingId: string, ownerId: string, explicit: boolean) => {
    await writeState(db, meetingId, { status: 'queued', failure_reason: null, part: null, parts: null });
    // Told before the job is queued: announce reads the stored state, and a worker quick to claim the
    // job would already have it running, so open pages would never hear "queued".
    await announce(meetingId, ownerId);
    await jobs.enqueue({ meetingId, ownerId, explicit });
  };

  /** Notes written without being asked, unless the person turned them off (setting, or both options). */
  const startAutomatic = async (meetingId: string, ownerId: string): Promise<void> => {
    // A transcript.ready delivered again (at least once) while its notes are queued or being written:
    // that job writes them; saying "queued" now would cover "running" on open pages.
    const under = (await jobs.states([meetingId])).get(meetingId)?.state;
    if (under === 'queued' || under === 'running') return;
    const header = await meetings.transcriptHeader(meetingId);
    if (!header) return;
    const wanted = notesWantedAutomatically(await deps.automaticNotesOf(ownerId), header.options);
    if (wanted) return queue(meetingId, ownerId, false);
    await writeState(db, meetingId, { status: 'off', failure_reason: null, part: null, parts: null });
    await announce(meetingId, ownerId);
  };

  return {
    /** The hand-off after a transcript is stored (transcription, import). */
    transcriptReady: startAutomatic,
    /**
     * The person corrected who spoke (a rename, a merge, lines moved, split or joined): action items
     * owned by a speaker take the owner's name as it is now, and open pages read the notes again.
     */
    speakersEdited: (meetingId: string, ownerId: string, merged?: SpeakerMerge): Promise<void> => followSpeakerEdits(meetingId, ownerId, merged),
    /** "Regenerate notes": write them again now, whatever their state (the person asked). */
    regenerate: async (ownerId: string, meetingId: string): Promise<NotesResponse | 'not-found' | 'not-ready'> => {
      const meeting = await meetings.get(ownerId, meetingId);
      if (!meeting) return 'not-found';
      if (meeting.status !== 'ready') return 'not-ready';
      await queue(meetingId, ownerId, true);
      return { summary: meeting.summary, ...(await notesOf(meetingId, meeting.transcriptRevision, meeting.summary)) };
    },
    /** A meeting's items and notes state, for the meeting the caller was allowed to read. */
    ofMeeting: notesOf,
    /** A meeting's open action items, each with its owner and due date (the caller was allowed to read it): a follow-up's agenda. */
    openActionItems: async (meeting: { id: string; transcriptRevision: number }): Promise<string[]> =>
      (await notesOf(meeting.id, meeting.transcriptRevision)).insights
        .filter((i) => i.kind === 'action_item' && i.status === 'open')
        .map((i) => [i.text, i.assignee && `(${i.assignee})`, i.due && `due ${i.due}`].filter(Boolean).join(' ')),
    /**
     * The topics, key points, decisions and action items of these meetings (the caller checked the
     * reader may read them), dismissed ones left out, each with the segments it cites: Ask weighs
     * the passages they point at.
     */
    itemsForAsk: async (meetingIds: string[]): Promise<Map<string, AskNote[]>> => {
      const items = await itemsOfMeetings(db, meetingIds);
      return new Map(
        [...items].map(([id, list]) => [
          id,
          list
            .filter((i) => i.status !== 'dismissed')
            .map((i) => ({ kind: i.kind, text: i.text, segmentIds: i.segmentIds, assignee: i.assignee, due: i.due, status: i.status })),
        ]),
      );
    },
    updateItem: updateNoteItem,
    /** The sample content's notes, as written (ready, from no engine). */
    storeSampleNotes: async (meetingId: string, items: NewItem[], transcriptRevision: number, before?: (trx: Db) => Promise<void>): Promise<void> => {
      await inTransaction(db, async (trx) => {
        await before?.(trx);
        await replaceItems(trx, meetingId, items, {
          status: 'ready',
          engine: null,
          source_revision: transcriptRevision,
          generated_at: new Date().toISOString(),
        });
      });
      await indexForSearch(meetingId);
    },
    /** Queues notes for ready meetings left without them (a crash, or meetings from before notes existed). */
    requeueMissing: async (): Promise<void> => {
      const missing = await meetingsWithoutNotes(db);
      const states = await jobs.states(missing.map((m) => m.id));
      for (const { id, ownerId } of missing) {
        const state = states.get(id)?.state;
        if (state !== 'queued' && state !== 'running') await startAutomatic(id, ownerId);
      }
    },
    counts: (ownerId: string) => countsOf(db, ownerId),
    /** /insights' topics and action items over the meetings the caller may read (their own and their teams'). */
    topics: async (userId: string): Promise<Topic[]> => meetings.nameSharers(await topicsOf(db, await meetings.readerOf(userId))),
    actionItems: async (userId: string): Promise<ActionItem[]> => meetings.nameSharers(await actionItemsOf(db, await meetings.readerOf(userId))),
    /** /insights › Action Items as a tracker: by status (overdue too), assignee and meeting, with later mentions. */
    actionItemTracker: tracker.actionItems,
    answerMention: tracker.answerMention,
    /** Every decision across the person's meetings, searchable, with superseding links. */
    decisionRegister: tracker.decisions,
    answerDecisionLink: tracker.answerDecisionLink,
    /** The notes engines and queue, for /status. */
    status: async (): Promise<StatusResponse['notes']> => {
      const engines = await deps.engines.status();
      return {
        setting: deps.engines.setting,
        inUse: engines.find((e) => e.inUse)?.name ?? 'local',
        engines,
        queue: await jobs.counts(),
      };
    },
    /** The job of a meeting's notes as the queue has it (tests, diagnostics). */
    jobOf: async (meetingId: string) => (await jobs.states([meetingId])).get(meetingId),
  };
}

/** Which parts to write: the meeting's options, or everything when the person asked and both are off. */
function partsOf(options: { summary: boolean; actionItems: boolean }, explicit: boolean): NotesParts {
  if (explicit && !options.summary && !options.actionItems) return { summary: true, actionItems: true };
  return { summary: options.summary, actionItems: options.actionItems };
}

/** A date a person set, in words relative to the meeting (the tracker shows both). */
function dueWords(due: string, startedAt: string, timeZone: string): string {
  const date = new Date(`${due}T12:00:00Z`);
  const sameYear = due.slice(0, 4) === new Date(startedAt).toLocaleDateString('en-CA', { timeZone }).slice(0, 4);
  return `by ${date.toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', ...(sameYear ? {} : { year: 'numeric' }), timeZone: 'UTC' })}`;
}
