import type { RealtimeEvent } from '#shared/contracts/realtime.ts';

type Listener = (event: RealtimeEvent) => void;

/**
 * Fan-out of events to the sockets of one person, in this process. A second server instance would
 * put Redis pub/sub behind the same two functions (docs/architecture.md, "Scaling out").
 */
export type RealtimeHub = {
  publish: (userId: string, event: RealtimeEvent) => void;
  subscribe: (userId: string, listener: Listener) => () => void;
  /** Open subscriptions, for tests and the status page. */
  size: () => number;
};

export function createRealtimeHub(): RealtimeHub {
  const listeners = new Map<string, Set<Listener>>();
  return {
    publish: (userId, event) => {
      for (const listener of listeners.get(userId) ?? []) listener(event);
    },
    subscribe: (userId, listener) => {
      const set = listeners.get(userId) ?? new Set<Listener>();
      set.add(listener);
      listeners.set(userId, set);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(userId);
      };
    },
    size: () => [...listeners.values()].reduce((n, set) => n + set.size, 0),
  };
}
