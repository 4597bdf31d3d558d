import crypto from 'node:crypto';
import type { Locker } from '@tus/utils';
import { expect, it } from 'vitest';

/**
 * What the tus server relies on from an upload locker, whatever keeps the locks: run against the
 * memory locker and the Redis one. `make` answers two lockers that must exclude each other: the one
 * locker twice in memory (one process), or two processes' lockers on one Redis. Their time to wait
 * for a lock is short (a few hundred ms), so the refusal after it is quick.
 */
export function uploadLockerContract(make: () => Promise<{ a: Locker; b: Locker }>): void {
  const uploadId = () => crypto.randomBytes(16).toString('hex');
  const live = () => new AbortController().signal;
  /** A request's release callback, and a promise kept once it is called. */
  const releaseAsked = () => {
    let asked!: () => void;
    const wasAsked = new Promise<void>((resolve) => (asked = resolve));
    return { callback: () => asked(), wasAsked };
  };

  it('lets one request hold an upload at a time: a newer one asks the holder to let go, and gets it once it does', async () => {
    const { a, b } = await make();
    const id = uploadId();
    const first = a.newLock(id);
    const holder = releaseAsked();
    await first.lock(live(), holder.callback);
    let taken = false;
    const second = b.newLock(id);
    const waiting = second.lock(live(), () => {}).then(() => (taken = true));
    await holder.wasAsked;
    expect(taken).toBe(false);
    await first.unlock();
    await waiting;
    expect(taken).toBe(true);
    await second.unlock();
  });

  it('keeps uploads apart: one held does not hold up another', async () => {
    const { a, b } = await make();
    const held = a.newLock(uploadId());
    await held.lock(live(), () => {});
    const other = b.newLock(uploadId());
    await other.lock(live(), () => {});
    await other.unlock();
    await held.unlock();
  });

  it('can be taken again once let go, by the same process or the other', async () => {
    const { a, b } = await make();
    const id = uploadId();
    for (const locker of [a, a, b, a]) {
      const lock = locker.newLock(id);
      await lock.lock(live(), () => {});
      await lock.unlock();
    }
  });

  it('answers 423 to a request that waited its whole time for a holder that never lets go', async () => {
    const { a, b } = await make();
    const id = uploadId();
    const stuck = a.newLock(id);
    await stuck.lock(live(), () => {});
    await expect(b.newLock(id).lock(live(), () => {})).rejects.toMatchObject({ status_code: 423 });
    await stuck.unlock();
  });

  it('stops waiting when the waiting request is aborted', async () => {
    const { a, b } = await make();
    const id = uploadId();
    const held = a.newLock(id);
    const holder = releaseAsked();
    await held.lock(live(), holder.callback);
    const abort = new AbortController();
    const waiting = b.newLock(id).lock(abort.signal, () => {});
    await holder.wasAsked;
    abort.abort();
    await expect(waiting).rejects.toMatchObject({ status_code: expect.any(Number) });
    await held.unlock();
    // Nothing was left held by the request that gave up.
    const next = b.newLock(id);
    await next.lock(live(), () => {});
    await next.unlock();
  });
}
