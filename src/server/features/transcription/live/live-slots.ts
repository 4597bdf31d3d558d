/**
 * The server's recogniser places, handed out first come, first served: a live session needs one per
 * capture source, waits in line when they are taken, and is told its place as the line moves. Strict
 * order, so a two-source session is not passed over for ever by one-source sessions behind it.
 */
export type LiveSlots = {
  /** Asks for `count` places; undefined when the server could never give that many (refuse it). */
  request: (count: number, handlers: { onGranted: () => void; onPosition: (position: number) => void }) => SlotHold | undefined;
  /** Places in use, for tests. */
  used: () => number;
};

/** Frees the places once granted, or leaves the line; a second call does nothing. */
export type SlotHold = { release: () => void };

type Waiter = { count: number; onGranted: () => void; onPosition: (position: number) => void; position: number };

export function createLiveSlots(capacity: number): LiveSlots {
  let used = 0;
  const line: Waiter[] = [];
  const advance = () => {
    while (line.length > 0 && used + line[0]!.count <= capacity) {
      const next = line.shift()!;
      used += next.count;
      next.onGranted();
    }
    line.forEach((waiter, index) => {
      if (waiter.position === index + 1) return;
      waiter.position = index + 1;
      waiter.onPosition(waiter.position);
    });
  };
  return {
    request: (count, handlers) => {
      if (count > capacity) return undefined;
      const waiter: Waiter = { count, ...handlers, position: 0 };
      let granted = false;
      let released = false;
      const onGranted = waiter.onGranted;
      waiter.onGranted = () => {
        granted = true;
        onGranted();
      };
      line.push(waiter);
      // Granted at once when no one waits ahead and the places are free; otherwise told its place.
      queueMicrotask(advance);
      return {
        release: () => {
          if (released) return;
          released = true;
          if (granted) used -= count;
          else line.splice(line.indexOf(waiter), 1);
          advance();
        },
      };
    },
    used: () => used,
  };
}
