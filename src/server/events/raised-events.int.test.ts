import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_PAYLOADS, type EventType } from '#shared/contracts/events.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';

// The events the features raise with their changes, as an integration (a webhook, a calendar) will
// read them: the right type, subject, owner and team, and a payload its schema accepts.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' } });
});
afterAll(() => t.close());

type Caller = Awaited<ReturnType<typeof signUpUser>>;
const call = async (caller: Caller, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => {
  const response = await t.app.inject({ method, url, headers: { authorization: `Bearer ${caller.token}` }, ...(payload ? { payload } : {}) });
  return { status: response.statusCode, json: response.body ? (response.json() as Record<string, unknown>) : {} };
};

/** The events recorded about a subject, oldest first, each payload checked against its type's schema. */
async function eventsAbout(subjectId: string) {
  const rows = await t.deps.database.db.selectFrom('domain_events').selectAll().where('subject_id', '=', subjectId).orderBy('seq').execute();
  return rows.map((row) => {
    const payload: unknown = JSON.parse(row.payload);
    expect(EVENT_PAYLOADS[row.type as EventType].safeParse(payload).success, `${row.type}'s payload`).toBe(true);
    return { type: row.type, actorId: row.actor_id, ownerId: row.owner_id, teamId: row.team_id, payload };
  });
}

describe('the events features raise', () => {
  it('follows a meeting from its import through its notes, an edit, a shared team, a ticked action item and its deletion', async () => {
    const owner = await signUpUser(t.app, 'events-owner', { fullName: 'Dana Owner' });
    const team = await call(owner, 'POST', '/api/v1/teams', { name: 'Launch' });
    const imported = await call(owner, 'POST', '/api/v1/meetings/imports', {
      fileName: 'launch.txt',
      content: [
        'Dana: We decided to launch on Friday the twelfth.',
        'Sam: I will book the venue for the launch party by Wednesday.',
        'Dana: Great, and Sam will send the invitations too.',
      ].join('\n'),
    });
    expect(imported.status).toBe(201);
    const id = String(imported.json.id);
    await t.deps.jobs.idle();

    const meeting = (await call(owner, 'GET', `/api/v1/meetings/${id}`)).json as { insights: { id: string; kind: string }[]; segments: { id: string }[] };
    const action = meeting.insights.find((i) => i.kind === 'action_item');
    expect(action).toBeDefined();
    expect((await call(owner, 'PATCH', `/api/v1/meetings/${id}/notes/items/${action!.id}`, { status: 'done' })).status).toBe(200);
    expect((await call(owner, 'PATCH', `/api/v1/meetings/${id}/segments/${meeting.segments[0]!.id}`, { text: 'We launch on Friday.' })).status).toBe(200);
    expect((await call(owner, 'PATCH', `/api/v1/meetings/${id}`, { teamId: team.json.id })).status).toBe(200);
    expect((await call(owner, 'PATCH', `/api/v1/meetings/${id}`, { title: 'Launch plan' })).status).toBe(200);
    expect((await call(owner, 'DELETE', `/api/v1/meetings/${id}`)).status).toBe(200);

    const events = await eventsAbout(id);
    const types = events.map((e) => e.type);
    expect(types.slice(0, 2)).toEqual(['transcript.ready', 'notes.ready']);
    expect(types).toContain('action_item.created');
    expect(types.slice(types.indexOf('action_item.completed'))).toEqual([
      'action_item.completed',
      'transcript.edited',
      'meeting.shared',
      'meeting.updated',
      'meeting.deleted',
    ]);
    expect(events[0]).toMatchObject({ actorId: owner.userId, ownerId: owner.userId, teamId: null, payload: { origin: 'import', title: 'launch' } });
    expect(events.find((e) => e.type === 'action_item.completed')).toMatchObject({ payload: { itemId: action!.id } });
    expect(events.find((e) => e.type === 'meeting.shared')).toMatchObject({ teamId: team.json.id, payload: { teamId: team.json.id, previousTeamId: null } });
    expect(events.find((e) => e.type === 'meeting.updated')).toMatchObject({ teamId: team.json.id, payload: { fields: ['title'] } });
  });

  it('records the deletion of an account, and forgets the events of its data once nothing waits on them', async () => {
    const leaving = await signUpUser(t.app, 'events-leaving');
    const imported = await call(leaving, 'POST', '/api/v1/meetings/imports', { fileName: 'private.txt', content: 'Lee: Something only I should keep.' });
    const id = String(imported.json.id);
    await t.deps.jobs.idle();
    expect((await eventsAbout(id)).length).toBeGreaterThan(0);

    const deleted = await call(leaving, 'DELETE', '/api/v1/me', { email: leaving.email, password: 'secret12' });
    expect(deleted.status).toBe(200);
    await t.deps.jobs.idle();
    expect(await eventsAbout(id)).toEqual([]);
    expect(await eventsAbout(leaving.userId)).toMatchObject([{ type: 'account.deleted', actorId: leaving.userId, ownerId: leaving.userId }]);
  });
});
