import { describe, expect, it } from 'vitest';
import { createRealtimeHub, type HubMessage, type RealtimeTransport } from './realtime-hub.ts';

describe('the realtime hub’s ended sessions', () => {
  it('end the listed sessions, or all but one, or all, of that person only, once each', () => {
    const hub = createRealtimeHub();
    const ended: string[] = [];
    const watch = (userId: string, sessionId: string) => hub.watchSession(userId, sessionId, () => ended.push(`${userId}/${sessionId}`));
    ['a', 'b', 'c'].forEach((session) => watch('ann', session));
    watch('bob', 'a');

    hub.endSessions({ userId: 'ann', sessionIds: ['a'] });
    expect(ended).toEqual(['ann/a']);
    hub.endSessions({ userId: 'ann', except: 'c' });
    expect(ended).toEqual(['ann/a', 'ann/b']);
    hub.endSessions({ userId: 'ann' });
    hub.endSessions({ userId: 'ann' });
    expect(ended).toEqual(['ann/a', 'ann/b', 'ann/c']);

    const unwatch = watch('bob', 'b');
    unwatch();
    hub.endSessions({ userId: 'bob', sessionIds: ['b'] });
    expect(ended).toEqual(['ann/a', 'ann/b', 'ann/c']);
  });

  it('send a long list through the transport in parts small enough for a NOTIFY', () => {
    const sent: HubMessage[] = [];
    let deliver: (message: HubMessage) => void = () => undefined;
    const transport: RealtimeTransport = { send: (message) => (sent.push(message), deliver(message)), onMessage: (handler) => (deliver = handler) };
    const hub = createRealtimeHub(transport);
    const ids = Array.from({ length: 250 }, () => crypto.randomUUID());
    const ended: string[] = [];
    for (const id of ids) hub.watchSession('ann', id, () => ended.push(id));
    hub.endSessions({ userId: 'ann', sessionIds: ids });
    expect(sent).toHaveLength(3);
    expect(sent.every((message) => Buffer.byteLength(JSON.stringify(message)) < 7_900)).toBe(true);
    expect(ended).toEqual(ids);
  });
});
