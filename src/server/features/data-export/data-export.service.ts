import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { z } from 'zod';
import type { DataExport } from '#shared/contracts/data-export.ts';
import { DATA_EXPORT_RUN_STAGES, type DataExportRunStage } from '#shared/contracts/job-progress.ts';
import type { DataExportEvent } from '#shared/contracts/realtime.ts';
import type { Db } from '#server/db/create-db.ts';
import type { JobQueue } from '#server/jobs/job-queue.ts';
import { AppError, notFound } from '#server/lib/app-error.ts';
import { bestEffort } from '#server/lib/best-effort.ts';
import type { BlobStore } from '#server/lib/blob-store.ts';
import type { RateLimiters } from '#server/lib/rate-limit.ts';
import type { RealtimeHub } from '#server/lib/realtime/realtime-hub.ts';
import { exportMeeting, safeFileStem, type MeetingsService } from '../meetings/meetings.service.ts';
import type { NotesService } from '../notes/notes.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { writeArchive, type ArchiveEntry } from './build-archive.ts';
import {
  deleteExports,
  expiredExportIds,
  exportIdsOf,
  findExport,
  insertExport,
  latestExport,
  updateExport,
  type DataExportRow,
} from './data-export.repository.ts';

/** How long a finished archive is offered (issue 11): then the hourly sweep deletes it. */
export const EXPORT_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
/** Exports one person may start in a day: each is a full copy of their data. */
export const EXPORTS_PER_DAY = 3;

/** Sends the "ready" email (deps.ts gives the installation's mailer: SMTP or the development outbox). */
export type ExportMailer = {
  send: (message: { kind: 'data_export'; to: string; subject: string; text: string; html: string; otp: string; link: string }) => Promise<void>;
};

/** Who the account is, as the archive's account.json tells it (deps.ts reads it from auth). */
export type AccountSummary = { id: string; email: string; fullName: string | null; createdAt: string };

const Payload = z.object({ exportId: z.uuid(), userId: z.uuid() });
type Payload = z.infer<typeof Payload>;

export type DataExportService = ReturnType<typeof createDataExportService>;

export function createDataExportService(deps: {
  db: Db;
  jobs: JobQueue;
  meetings: MeetingsService;
  notes: NotesService;
  settings: SettingsService;
  blobs: BlobStore;
  accountOf: (userId: string) => Promise<AccountSummary | undefined>;
  mailer: ExportMailer;
  realtime: RealtimeHub;
  publicUrl: string;
  now: () => Date;
  log: Logger;
  rateLimiters: RateLimiters;
  /** The person's voice profile as it is kept (consents, sources, the numbers), from the voice-profiles feature. */
  voiceProfileOf?: (userId: string) => Promise<unknown>;
}) {
  const { db, meetings, notes, settings, blobs } = deps;
  const requests = deps.rateLimiters.limiter({ keyPrefix: 'data-export', points: EXPORTS_PER_DAY, duration: 24 * 60 * 60 });
  /** An archive's key in the blob store: one per export, counted against its person's storage. */
  const keyOf = (id: string) => blobs.keyFor('exports', id, 'zip');

  const announce = (userId: string, row: Pick<DataExportRow, 'id' | 'status' | 'progress'>) => {
    const event: DataExportEvent = { type: 'account.export', exportId: row.id, status: row.status, progress: row.progress };
    deps.realtime.publish(userId, event);
  };

  const removeFiles = (ids: readonly string[]) => blobs.remove(ids.map(keyOf));

  /** Everything of the person, gathered through the features that own it. */
  const gather = async (userId: string, account: AccountSummary, onMeeting: (done: number, total: number) => void) => {
    const ids = await meetings.ownedIds(userId);
    const timeZone = await settings.timeZoneOf(userId);
    const readable: ArchiveEntry[] = [];
    const audio: ArchiveEntry[] = [];
    const list: unknown[] = [];
    for (const [index, id] of ids.entries()) {
      const record = await meetings.get(userId, id);
      if (record) {
        const { transcriptRevision, ...meeting } = record;
        const { insights, notes: notesState } = await notes.ofMeeting(id, transcriptRevision);
        const stored = await meetings.audio(userId, id);
        let audioFile: string | null = null;
        if (stored?.key && (await blobs.exists(stored.key))) {
          audioFile = `audio/${id}${path.extname(stored.key)}`;
          const key = stored.key;
          audio.push({ name: audioFile, open: () => blobs.createReadStream(key) });
        }
        list.push({ ...meeting, notes: notesState, insights, audioFile });
        // Each meeting readable without Parley too: its notes and transcript as the Markdown download
        // gives them, in the person's time zone, made when the archive reaches it.
        const detail = { ...meeting, notes: notesState, insights, processing: null };
        readable.push({
          name: `meetings/${meeting.startedAt.slice(0, 10)} ${safeFileStem(meeting.title)} (${id.slice(0, 8)}).md`,
          render: async () => (await exportMeeting(detail, 'md', timeZone)).body,
        });
      }
      onMeeting(index + 1, ids.length);
    }
    const { settings: userSettings } = await settings.get({ id: userId, name: account.fullName, email: account.email });
    const voiceProfile = (await deps.voiceProfileOf?.(userId)) ?? null;
    const document = {
      format: 'parley-data-export',
      version: 1,
      exportedAt: deps.now().toISOString(),
      account,
      settings: userSettings,
      voiceProfile,
      meetings: list,
    };
    return [{ name: 'account.json', json: document }, ...readable, ...audio] satisfies ArchiveEntry[];
  };

  const job = deps.jobs.define<Payload, DataExportRunStage>({
    name: 'data-export',
    label: 'data export',
    payload: Payload,
    stages: DATA_EXPORT_RUN_STAGES,
    // By export, not by person: a new export asked for the moment the last became ready must not
    // find that one's job still settling and be left queued (one at a time is request()'s rule).
    keyOf: (p) => p.exportId,
    concurrency: 1,
    maxAttempts: 3,
    retryDelayMs: 30_000,
    classify: (error) => ({ retryable: true, message: `The export could not be built: ${error instanceof Error ? error.message : String(error)}` }),
    run: async ({ exportId, userId }, ctx) => {
      const row = await findExport(db, exportId);
      if (!row || row.status === 'ready') return; // deleted meanwhile (Delete All Data), or built already
      const account = await deps.accountOf(userId);
      if (!account) return;
      let last = 0;
      const report = (progress: number) => {
        ctx.progress('exporting', progress);
        // At most a few events a second, however many meetings.
        if (progress < 1 && Date.now() - last < 250) return;
        last = Date.now();
        void updateExport(db, exportId, { status: 'running', progress });
        announce(userId, { id: exportId, status: 'running', progress });
      };
      await updateExport(db, exportId, { status: 'running', progress: 0, failure_reason: null });
      announce(userId, { id: exportId, status: 'running', progress: 0 });
      // Gathering is the first half of the work, writing the archive (with the audio) the second.
      const entries = await gather(userId, account, (done, total) => report((0.5 * done) / Math.max(1, total)));
      const bytes = await blobs.produce(keyOf(exportId), { ownerId: userId, kind: 'export' }, (file) =>
        writeArchive(file, entries, (done) => report(0.5 + (0.5 * done) / entries.length), ctx.signal),
      );
      if (!(await findExport(db, exportId))) {
        await removeFiles([exportId]); // the person deleted their data while it was being written
        return;
      }
      // Only the newest archive is kept (each is a whole copy of the person's data): the older go
      // before this one is offered, so the person never sees two.
      const older = (await exportIdsOf(db, userId)).filter((id) => id !== exportId);
      await deleteExports(db, older);
      await removeFiles(older);
      const readyAt = deps.now();
      await updateExport(db, exportId, {
        status: 'ready',
        progress: 1,
        bytes,
        ready_at: readyAt.toISOString(),
        expires_at: new Date(readyAt.getTime() + EXPORT_LIFETIME_MS).toISOString(),
      });
      announce(userId, { id: exportId, status: 'ready', progress: 1 });
      // Settings shows the archive ready whatever the email does: it is a courtesy, logged and counted when it fails.
      await bestEffort('data-export-email', mailReady(account, readyAt), deps.log, { exportId });
    },
    onSettled: async ({ exportId, userId }, outcome) => {
      if (outcome.status !== 'failed') return;
      await updateExport(db, exportId, { status: 'failed', progress: null, failure_reason: outcome.error });
      announce(userId, { id: exportId, status: 'failed', progress: null });
    },
  });

  const mailReady = async (account: AccountSummary, readyAt: Date) => {
    const link = `${deps.publicUrl}/settings`;
    // In the person's own time zone (Settings › Profile), named, as their exports print times.
    const until = new Intl.DateTimeFormat('en-US', {
      weekday: 'long',
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
      timeZone: await settings.timeZoneOf(account.id),
    }).format(new Date(readyAt.getTime() + EXPORT_LIFETIME_MS));
    const text = [
      `Your Parley data export is ready.`,
      ``,
      `Download it from Settings › Privacy: ${link}`,
      ``,
      `It holds your account, settings, meetings with their transcripts and notes (also as a Markdown file each), and your recordings. It will be deleted on ${until}.`,
      `If you did not ask for it, sign in and change your password.`,
    ].join('\n');
    const html = `<p>Your Parley data export is ready.</p><p><a href="${link}">Download it from Settings › Privacy</a>.</p><p>It holds your account, settings, meetings with their transcripts and notes (also as a Markdown file each), and your recordings. It will be deleted on ${until}.</p><p>If you did not ask for it, sign in and change your password.</p>`;
    await deps.mailer.send({ kind: 'data_export', to: account.email, subject: 'Your Parley data export is ready', text, html, otp: '', link });
  };

  const present = (row: DataExportRow): DataExport => ({
    id: row.id,
    status: row.status,
    progress: row.progress,
    bytes: row.bytes,
    failureReason: row.failure_reason,
    createdAt: row.created_at,
    readyAt: row.ready_at,
    expiresAt: row.expires_at,
  });
  const expired = (row: DataExportRow) => row.expires_at !== null && row.expires_at <= deps.now().toISOString();

  return {
    /** Starts an export, or answers the one already under way (one at a time per person). */
    request: async (userId: string): Promise<DataExport> => {
      const latest = await latestExport(db, userId);
      if (latest && (latest.status === 'queued' || latest.status === 'running')) return present(latest);
      const allowance = await requests.consume(userId);
      if (!allowance.allowed) {
        const hours = Math.max(1, Math.ceil(allowance.msBeforeNext / 3_600_000));
        throw new AppError(
          'RATE_LIMITED',
          `You have requested ${EXPORTS_PER_DAY} data exports in the last day, the most one person may. Try again in ${hours} ${hours === 1 ? 'hour' : 'hours'}; your latest export stays available until it expires.`,
        );
      }
      const row: DataExportRow = {
        id: crypto.randomUUID(),
        user_id: userId,
        status: 'queued',
        progress: null,
        bytes: null,
        failure_reason: null,
        created_at: deps.now().toISOString(),
        ready_at: null,
        expires_at: null,
      };
      await insertExport(db, row);
      await job.enqueue({ exportId: row.id, userId });
      announce(userId, row);
      return present(row);
    },
    latest: async (userId: string): Promise<DataExport | null> => {
      const row = await latestExport(db, userId);
      return row && !expired(row) ? present(row) : null;
    },
    /** The finished archive of the caller's own export; anyone else's id, or an expired one, is a 404. */
    download: async (userId: string, id: string): Promise<{ stream: Readable; bytes: number; fileName: string }> => {
      const row = await findExport(db, id);
      if (!row || row.user_id !== userId || row.status !== 'ready' || expired(row)) throw notFound('Export');
      const stored = await blobs.stat(keyOf(id));
      if (!stored) throw notFound('Export');
      return { stream: blobs.createReadStream(keyOf(id)), bytes: stored.bytes, fileName: `parley-export-${(row.ready_at ?? row.created_at).slice(0, 10)}.zip` };
    },
    /** Delete All Data and Delete Account: the person's archives go with the rest. */
    removeFor: async (userId: string): Promise<void> => {
      const ids = await exportIdsOf(db, userId);
      await deleteExports(db, ids);
      await removeFiles(ids);
    },
    /** Archives past their 7 days (the worker's hourly sweep). */
    sweepExpired: async (): Promise<number> => {
      const ids = await expiredExportIds(db, deps.now().toISOString());
      await deleteExports(db, ids);
      await removeFiles(ids);
      return ids.length;
    },
  };
}
