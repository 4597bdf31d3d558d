import type { RealtimeEvent } from '#shared/contracts/realtime.ts';

type Listener = (event: RealtimeEvent) => void;

/**
 * Fan-out of events to the sockets of one person. In one process events go straight to its
 * listeners; with a transport (PostgreSQL LISTEN/NOTIFY, realtime-postgres.ts) every process
 * publishes through it and delivers what comes back, so an event raised by a worker process reaches
 * the sockets held by the web processes.
 */
export type RealtimeHub = {
  publish: (userId: string, event: RealtimeEvent) => void;
  subscribe: (userId: string, listener: Listener) => () => void;
  /** Open subscriptions, for tests and the status page. */
  size: () => number;
};

/** Carries published events between processes, in the order they were published. */
export type RealtimeTransport = {
  send: (message: { userId: string; event: RealtimeEvent }) => void;
  onMessage: (deliver: (message: { userId: string; event: RealtimeEvent }) => void) => void;
};

export function createRealtimeHub(transport?: RealtimeTransport): RealtimeHub {
  const listeners = new Map<string, Set<Listener>>();
  const deliver = ({ userId, event }: { userId: string; event: RealtimeEvent }) => {
    for (const listener of listeners.get(userId) ?? []) listener(event);
  };
  transport?.onMessage(deliver);
  return {
    publish: (userId, event) => (transport ? transport.send({ userId, event }) : deliver({ userId, event })),
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
