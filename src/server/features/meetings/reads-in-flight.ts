type Read = { meetingId: string; readerId: string; stop: () => void };

/**
 * The downloads and audio streams being sent right now, by meeting and reader, so that losing
 * access ends them at once (issue 11: "removing a member or unsharing takes effect at once,
 * including downloads in flight"), not only the next request. A recording can take minutes to
 * stream; without this a removed member would go on receiving it.
 *
 * A read is registered before its access is checked, so a change landing between the check and the
 * first byte is caught by the re-check it triggers.
 */
export function createReadsInFlight(canRead: (readerId: string, meetingId: string) => Promise<boolean>) {
  const reads = new Set<Read>();

  /** Asks again whether each matching read may go on, and stops those that may not. */
  const recheck = async (matches: (read: Read) => boolean): Promise<void> => {
    const due = [...reads].filter(matches);
    const verdicts = new Map<string, Promise<boolean>>();
    await Promise.all(
      due.map(async (read) => {
        const key = `${read.readerId}:${read.meetingId}`;
        const verdict = verdicts.get(key) ?? canRead(read.readerId, read.meetingId);
        verdicts.set(key, verdict);
        if (!(await verdict) && reads.delete(read)) read.stop();
      }),
    );
  };

  return {
    /** Registers a read; the function returned forgets it (when its answer has ended, however). */
    start: (meetingId: string, readerId: string, stop: () => void): (() => void) => {
      const read: Read = { meetingId, readerId, stop };
      reads.add(read);
      return () => void reads.delete(read);
    },
    /** The meeting was unshared, moved to another team or deleted: whoever may no longer read it stops. */
    meetingChanged: (meetingId: string) => recheck((read) => read.meetingId === meetingId),
    /** These people left a team (removed, or the team deleted): what they may no longer read stops. */
    readersLeft: (readerIds: readonly string[]) => recheck((read) => readerIds.includes(read.readerId)),
    /** How many reads are being sent (tests, and a check that finished ones are forgotten). */
    size: () => reads.size,
  };
}
