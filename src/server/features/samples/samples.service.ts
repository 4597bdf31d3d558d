import crypto from 'node:crypto';
import { DEFAULT_RECORDING_OPTIONS, type MeetingDetail } from '#shared/contracts/meetings.ts';
import { ianaTimeZone } from '#shared/contracts/time-zones.ts';
import type { Db } from '#server/db/create-db.ts';
import type { MeetingsService } from '../meetings/meetings.service.ts';
import { resolveDueDate, type NewItem, type NotesService } from '../notes/notes.service.ts';
import { SAMPLE_MEETINGS, type SampleMeeting, type SampleNote } from './sample-meetings.ts';
import { callOffSetup, setupCalledOff, setupStillWanted } from './samples.repository.ts';

/** When a sample meeting started, counted back from `now` (they stay recent for a new account). */
function startOf(sample: SampleMeeting, now: Date): string {
  const started = new Date(now);
  started.setUTCDate(started.getUTCDate() - sample.daysAgo);
  started.setUTCHours(sample.hour, 0, 0, 0);
  return started.toISOString();
}

/** A sample note as a stored item: its line(s) as citations, its due words read on the meeting's calendar. */
function itemOf(note: SampleNote, segments: { id: string; startMs: number; endMs: number }[], startedAt: string): NewItem {
  const first = segments[note.segment]!;
  const last = segments[note.through ?? note.segment] ?? first;
  const cited = segments.slice(note.segment, (note.through ?? note.segment) + 1).map((s) => s.id);
  const due = note.dueText ? resolveDueDate(note.dueText, startedAt, ianaTimeZone(undefined)) : null;
  return {
    kind: note.kind,
    text: note.text,
    segmentIds: cited,
    startMs: first.startMs,
    endMs: note.kind === 'topic' ? last.endMs : null,
    assignee: note.assignee ?? null,
    due: due?.due ?? null,
    dueText: note.dueText ?? null,
    suggested: false,
  };
}

/**
 * The sample content (sample-meetings.ts): stored for every new account as meetings with their
 * notes, off the sign-up request (the `account.created` event's delivery, samples.subscribers.ts),
 * and shown signed out as the /demo tour's meeting (built in memory, nothing stored).
 */
export type SamplesService = ReturnType<typeof createSamplesService>;

/** Thrown inside a sample's transaction once Delete All Data has called the setting up off: it rolls that sample back. */
class SetupCalledOff extends Error {}

export function createSamplesService(deps: {
  db: Db;
  meetings: Pick<MeetingsService, 'createSample'>;
  notes: Pick<NotesService, 'storeSampleNotes'>;
  /** Whether the account's setting up is still on its way (its `account.created` delivery pending). */
  settingUp: (userId: string) => Promise<boolean>;
  /** Whether the account still exists (one deleted before its samples were set up gets none). */
  accountExists: (userId: string) => Promise<boolean>;
}) {
  return {
    /**
     * A new account's six sample meetings, badged Sample. `key` (the event's id) names them, so a
     * delivery run again after a failure adds only the ones still missing. Each meeting and each
     * meeting's notes is written in a transaction that first checks the setting up was not called off
     * (callOff): once Delete All Data has begun, nothing more of it is written.
     */
    seed: async (ownerId: string, key: string, now = new Date()): Promise<void> => {
      if (!(await deps.accountExists(ownerId))) return;
      const stillWanted = async (trx: Db) => {
        if (!(await setupStillWanted(trx, ownerId))) throw new SetupCalledOff();
      };
      try {
        for (const [index, sample] of SAMPLE_MEETINGS.entries()) {
          const startedAt = startOf(sample, now);
          const created = await deps.meetings.createSample(ownerId, { ...sample, startedAt }, sampleId(key, index), stillWanted);
          if (created.alreadyThere) continue;
          const segments = sample.transcript.segments.map((s, i) => ({ id: created.segmentIds[i]!, startMs: s.startMs, endMs: s.endMs }));
          const items = sample.notes.map((note) => itemOf(note, segments, startedAt));
          await deps.notes.storeSampleNotes(created.id, items, created.transcriptRevision, stillWanted);
        }
      } catch (error) {
        if (!(error instanceof SetupCalledOff)) throw error;
      }
    },
    /**
     * Delete All Data, before anything is deleted: the rest of the setting up writes nothing. A
     * sample being written as this is called is committed first (its transaction holds the
     * account's row), so the deletion that follows sees it and takes it with the rest.
     */
    callOff: (userId: string): Promise<void> => callOffSetup(deps.db, userId),
    /** Whether a new account's sample meetings are still being set up (the dashboard says so meanwhile); not once called off. */
    settingUp: async (userId: string): Promise<boolean> => (await deps.settingUp(userId)) && !(await setupCalledOff(deps.db, userId)),
    /** The first sample meeting, for the public /demo tour. */
    demoMeeting: (now = new Date()): MeetingDetail => demoMeeting(now),
  };
}

/** A sample meeting's id: the same for one account's setting up however often it runs, unguessable from outside. */
function sampleId(key: string, index: number): string {
  return uuidOf(crypto.createHash('sha256').update(`parley-sample:${key}:${index}`).digest('hex'));
}

const uuidOf = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;

/** A deterministic id per sample position, so the public demo's ids are stable across requests. */
function demoId(kind: string, index: number): string {
  return uuidOf(crypto.createHash('sha256').update(`parley-demo:${kind}:${index}`).digest('hex'));
}

function demoMeeting(now: Date): MeetingDetail {
  const sample = SAMPLE_MEETINGS[0]!;
  const startedAt = startOf(sample, now);
  const speakers = sample.transcript.speakers.map((s, i) => ({ id: demoId('speaker', i), label: s.label, displayName: s.displayName ?? null }));
  const segments = sample.transcript.segments.map((s, i) => ({
    id: demoId('segment', i),
    speakerId: s.speaker === null ? null : (speakers[s.speaker]?.id ?? null),
    startMs: s.startMs,
    endMs: s.endMs,
    text: s.text,
    confidence: s.confidence ?? null,
  }));
  return {
    id: demoId('meeting', 0),
    title: sample.title,
    startedAt,
    durationSeconds: sample.durationSeconds,
    status: 'ready',
    source: 'sample',
    participants: sample.participants,
    summary: sample.summary,
    isSample: true,
    hasAudio: false,
    createdAt: startedAt,
    options: DEFAULT_RECORDING_OPTIONS,
    failureReason: null,
    speakers,
    segments,
    insights: sample.notes.map((note, i) => {
      const item = itemOf(note, segments, startedAt);
      return {
        id: demoId('insight', i),
        kind: item.kind,
        text: item.text,
        segmentIds: item.segmentIds,
        startMs: item.startMs,
        endMs: item.endMs ?? null,
        assignee: item.assignee ?? null,
        due: item.due ?? null,
        dueText: item.dueText ?? null,
        status: 'open' as const,
        suggested: false,
      };
    }),
    notes: {
      status: 'ready',
      engine: null,
      failureReason: null,
      droppedUncited: 0,
      localFallbackParts: 0,
      progress: null,
      outOfDate: false,
      generatedAt: startedAt,
    },
  };
}
