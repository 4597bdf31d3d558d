import { describe, expect, it } from 'vitest';
import { BEST_EFFORTS, bestEffort, bestEffortFailures, failedBestEffort } from './best-effort.ts';

// A named best effort never fails what it follows, and never fails silently: each failure is a warn
// log carrying its name and error, and a count per name that /api/v1/status shows.

const recordingLog = () => {
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  return { lines, warn: (fields: Record<string, unknown>, message: string) => void lines.push({ fields, message }) } as const;
};

describe('named best efforts', () => {
  it('hand back what succeeded, and log nothing', async () => {
    const log = recordingLog();
    const before = bestEffortFailures()['notes-progress'];
    expect(await bestEffort('notes-progress', Promise.resolve(42), log as never)).toBe(42);
    expect(await bestEffort('notes-progress', async () => 'done', log as never)).toBe('done');
    expect(log.lines).toEqual([]);
    expect(bestEffortFailures()['notes-progress']).toBe(before);
  });

  it('turn a failure into undefined, logged at warn with its name and counted under it alone', async () => {
    const log = recordingLog();
    const error = new Error('the mail server hung up');
    const before = bestEffortFailures();
    expect(await bestEffort('data-export-email', Promise.reject(error), log as never, { exportId: 'e1' })).toBeUndefined();
    expect(
      await bestEffort(
        'data-export-email',
        () => {
          throw error;
        },
        log as never,
      ),
    ).toBeUndefined();
    failedBestEffort('team-realtime', error, log as never);
    expect(log.lines).toEqual([
      { fields: { exportId: 'e1', effort: 'data-export-email', err: error }, message: BEST_EFFORTS['data-export-email'] },
      { fields: { effort: 'data-export-email', err: error }, message: BEST_EFFORTS['data-export-email'] },
      { fields: { effort: 'team-realtime', err: error }, message: BEST_EFFORTS['team-realtime'] },
    ]);
    const after = bestEffortFailures();
    expect(after['data-export-email']).toBe(before['data-export-email'] + 2);
    expect(after['team-realtime']).toBe(before['team-realtime'] + 1);
    expect(after['auto-delete-sweep']).toBe(before['auto-delete-sweep']);
  });

  it('list every name, at 0 until it fails', () => {
    const counts = bestEffortFailures();
    expect(Object.keys(counts)).toEqual(Object.keys(BEST_EFFORTS));
    expect(counts['job-lane']).toBe(0);
  });
});
