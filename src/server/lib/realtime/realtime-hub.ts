import type { RealtimeEvent } from '#shared/contracts/realtime.ts';

type Listener = (event: RealtimeEvent) => void;

/**
 * Sign-in sessions of one person that have ended (signed out, ended by a refresh-token reuse, by a
 * new password or by MFA, the person deleted): the listed ones, else all of them but `except`.
 */
export type SessionsEnded = { userId: string; sessionIds?: string[]; except?: string };

/** What travels between processes: an event for a person's sockets, or the end of some of their sessions. */
export type HubMessage = { userId: string; event: RealtimeEvent } | { userId: string; sessionsEnded: Omit<SessionsEnded, 'userId'> };

/**
 * Fan-out of events to the sockets of one person. In one process events go straight to its
 * listeners; with a transport (PostgreSQL LISTEN/NOTIFY, realtime-postgres.ts) every process
 * publishes through it and delivers what comes back, so an event raised by a worker process reaches
 * the sockets held by the web processes. Ended sessions travel the same way: a sign-out on one web
 * process closes the sockets of that session held by another.
 */
export type RealtimeHub = {
  publish: (userId: string, event: RealtimeEvent) => void;
  subscribe: (userId: string, listener: Listener) => () => void;
  /** Tells every process's watchers (below) that these sessions have ended. */
  endSessions: (ended: SessionsEnded) => void;
  /** Calls `onEnded` once when the session `sessionId` of `userId` ends; returns the unwatch. */
  watchSession: (userId: string, sessionId: string, onEnded: () => void) => () => void;
  /** Open subscriptions, for tests and the status page. */
  size: () => number;
};

/** Carries published messages between processes, in the order they were published. */
export type RealtimeTransport = {
  send: (message: HubMessage) => void;
  onMessage: (deliver: (message: HubMessage) => void) => void;
};

/** 100 ids of 36 characters and their quotes make about 4 KB of JSON. */
const SESSION_IDS_PER_MESSAGE = 100;

type Watcher = { sessionId: string; onEnded: () => void };

export function createRealtimeHub(transport?: RealtimeTransport): RealtimeHub {
  const listeners = new Map<string, Set<Listener>>();
  const watchers = new Map<string, Set<Watcher>>();
  const add = <T>(map: Map<string, Set<T>>, userId: string, item: T) => {
    const set = map.get(userId) ?? new Set<T>();
    set.add(item);
    map.set(userId, set);
    return () => {
      set.delete(item);
      if (set.size === 0 && map.get(userId) === set) map.delete(userId);
    };
  };
  const deliver = (message: HubMessage) => {
    if ('event' in message) {
      for (const listener of listeners.get(message.userId) ?? []) listener(message.event);
      return;
    }
    const { sessionIds, except } = message.sessionsEnded;
    const ends = (sessionId: string) => (sessionIds ? sessionIds.includes(sessionId) : sessionId !== except);
    // A copy: onEnded closes a socket, whose close handler unwatches while this loop runs.
    for (const watcher of [...(watchers.get(message.userId) ?? [])]) if (ends(watcher.sessionId)) watcher.onEnded();
  };
  const send = (message: HubMessage) => (transport ? transport.send(message) : deliver(message));
  transport?.onMessage(deliver);
  return {
    publish: (userId, event) => send({ userId, event }),
    subscribe: (userId, listener) => add(listeners, userId, listener),
    endSessions: ({ userId, sessionIds, except }) => {
      if (!sessionIds) return send({ userId, sessionsEnded: except === undefined ? {} : { except } });
      // In parts, so a long list stays within a NOTIFY payload (8000 bytes).
      for (let i = 0; i < sessionIds.length; i += SESSION_IDS_PER_MESSAGE)
        send({ userId, sessionsEnded: { sessionIds: sessionIds.slice(i, i + SESSION_IDS_PER_MESSAGE) } });
    },
    watchSession: (userId, sessionId, onEnded) => {
      let called = false;
      const unwatch = add(watchers, userId, {
        sessionId,
        onEnded: () => {
          if (called) return;
          called = true;
          unwatch();
          onEnded();
        },
      });
      return unwatch;
    },
    size: () => [...listeners.values()].reduce((n, set) => n + set.size, 0),
  };
}
