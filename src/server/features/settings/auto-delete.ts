import type { FastifyBaseLogger as Logger } from 'fastify';
import { PRIVACY_DEFAULTS, shiftByAutoDelete, type AutoDelete } from '#shared/contracts/settings.ts';
import { bestEffort } from '#server/lib/best-effort.ts';
import type { MeetingsService } from '../meetings/meetings.service.ts';
import type { SettingsService } from './settings.service.ts';

/** How often the sweep looks; the shortest period is 30 days, so an hour late is never noticed. */
export const AUTO_DELETE_INTERVAL_MS = 60 * 60 * 1000;

/** The moment before which a meeting is too old to keep, or null for "never". */
export const autoDeleteCutoff = (period: AutoDelete, now: Date): Date | null => shiftByAutoDelete(period, now, -1);

export type AutoDeleteSweeper = {
  /** One sweep at `now` (the clock's time by default); resolves with how many meetings went. */
  runOnce: (now?: Date) => Promise<{ deleted: number }>;
  /** Sweeps now and then every interval until stop(). */
  start: () => void;
  /** Stops the timer and waits for a sweep under way, so the database is not closed under it. */
  stop: () => Promise<void>;
};

type SweeperDeps = { meetings: MeetingsService; settings: SettingsService; log: Logger; now?: () => Date; intervalMs?: number };

/**
 * Settings › Privacy "Auto-delete recordings": deletes each person's meetings older than the period
 * they chose (the spec's 90 days until they choose), with their audio, transcript and share links.
 * Age counts from when the meeting came into Parley, so importing an old recording never deletes it
 * at once. Sample meetings are never deleted this way, nor a meeting whose transcription is running.
 */
export function createAutoDeleteSweeper(deps: SweeperDeps): AutoDeleteSweeper {
  const clock = deps.now ?? (() => new Date());
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<{ deleted: number }> | undefined;

  const sweep = async (now: Date): Promise<{ deleted: number }> => {
    const chosen = await deps.settings.autoDeleteChoices();
    // Only people with a meeting older than the shortest period can have anything to delete.
    const owners = await deps.meetings.ownersWithMeetingsBefore(autoDeleteCutoff('30days', now)!);
    let deleted = 0;
    for (const ownerId of owners) {
      const cutoff = autoDeleteCutoff(chosen.get(ownerId) ?? PRIVACY_DEFAULTS.autoDelete, now);
      // Through the meetings feature's own delete, so the search index, every dependent row and the audio go too.
      if (cutoff) deleted += await deps.meetings.removeOlderThan(ownerId, cutoff);
    }
    if (deleted > 0) deps.log.info({ deleted }, 'auto-delete removed meetings older than their owners chose to keep');
    return { deleted };
  };

  const runOnce = (now = clock()) => {
    // One sweep at a time: a slow sweep is joined, not doubled.
    running ??= sweep(now).finally(() => {
      running = undefined;
    });
    return running;
  };

  const tick = () => {
    void bestEffort('auto-delete-sweep', runOnce(), deps.log);
  };

  return {
    runOnce,
    start: () => {
      if (timer) return;
      tick();
      timer = setInterval(tick, deps.intervalMs ?? AUTO_DELETE_INTERVAL_MS);
      timer.unref(); // never what keeps the process alive
    },
    stop: async () => {
      clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined); // waited for, not judged: its failure is its caller's (tick logs and counts it)
    },
  };
}
