import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { MeetingListResponseSchema, type MeetingSummary } from '#shared/contracts/meetings.ts';
import { CreatedShareLinkSchema, ShareLinkListSchema, SharedMeetingSchema, type CreatedShareLink } from '#shared/contracts/sharing.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { MAX_ACTIVE_LINKS_PER_MEETING } from './sharing.service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' } });
});
afterAll(() => t.close());

type User = { token: string; id: string; email: string };
async function newUser(): Promise<User> {
  const { token, userId, email } = await signUpUser(t.app, 'sharing', { fullName: 'Share Person' });
  return { token, id: userId, email };
}

const api = async (user: User | undefined, method: 'GET' | 'POST' | 'DELETE', url: string) => {
  const response = await t.app.inject({ method, url, headers: user ? { authorization: `Bearer ${user.token}` } : {} });
  return { status: response.statusCode, body: response.json() as unknown, headers: response.headers, raw: response.body };
};

async function meetingTitled(user: User, title: string): Promise<MeetingSummary> {
  const list = MeetingListResponseSchema.parse((await api(user, 'GET', `/api/v1/meetings?q=${encodeURIComponent(title)}`)).body);
  const meeting = list.items.find((m) => m.title === title);
  expect(meeting, title).toBeDefined();
  return meeting!;
}

async function share(user: User, meetingId: string): Promise<CreatedShareLink> {
  const created = await api(user, 'POST', `/api/v1/meetings/${meetingId}/share`);
  expect(created.status).toBe(201);
  return CreatedShareLinkSchema.parse(created.body);
}

const view = (token: string) => api(undefined, 'GET', `/api/v1/shared/${token}`);

describe('share links', () => {
  let owner: User;
  let meeting: MeetingSummary;
  beforeAll(async () => {
    owner = await newUser();
    meeting = await meetingTitled(owner, 'Weekly Team Standup');
  });

  it('creates a link whose token is shown once and stored only as a SHA-256', async () => {
    const link = await share(owner, meeting.id);
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.url).toBe(`${t.config.publicUrl}/shared/${link.token}`);
    const rows = await t.deps.database.db.selectFrom('share_links').selectAll().where('id', '=', link.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ meeting_id: meeting.id, owner_id: owner.id, revoked_at: null, created_at: link.createdAt });
    expect(rows[0]?.token_hash).toBe(crypto.createHash('sha256').update(link.token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(link.token);

    const listed = await api(owner, 'GET', `/api/v1/meetings/${meeting.id}/share`);
    expect(listed.status).toBe(200);
    const items = ShareLinkListSchema.parse(listed.body).items;
    expect(items.map((i) => i.id)).toContain(link.id);
    expect(listed.raw).not.toContain(link.token);
    expect(Object.keys(items[0]!).sort()).toEqual(['createdAt', 'id']);
  });

  it('opens a read-only view without signing in, leaking no ids or emails', async () => {
    const link = await share(owner, meeting.id);
    const response = await view(link.token);
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const shared = z.strictObject(SharedMeetingSchema.shape).parse(response.body);
    expect(shared.title).toBe('Weekly Team Standup');
    expect(shared.participants).toContain('Sarah Miller');
    expect(shared.summary).toBe(meeting.summary);
    expect(shared.segments.length).toBeGreaterThan(3);
    expect(shared.speakers.map((s) => s.displayName)).toContain('Sarah Miller');
    expect(shared.insights.some((i) => i.kind === 'action_item')).toBe(true);
    expect(shared.notes).toEqual({ status: 'ready' });
    expect(response.raw).not.toContain(owner.email);
    expect(response.raw).not.toContain(owner.id);
    expect(response.raw).not.toContain(meeting.id);
    expect(response.raw).not.toMatch(/owner|email|audio/i);
  });

  it('carries the notes a reader may see: every kind with its time, not what the owner dismissed, and only the notes status', async () => {
    const user = await newUser();
    const target = await meetingTitled(user, 'Weekly Team Standup');
    const link = await share(user, target.id);
    const before = z.strictObject(SharedMeetingSchema.shape).parse((await view(link.token)).body);
    expect(before.summary).toBe(target.summary);
    expect([...new Set(before.insights.map((i) => i.kind))].sort()).toEqual(['action_item', 'decision', 'key_point', 'topic']);
    const regression = before.insights.find((i) => i.text === 'Finish the regression suite for the billing screens');
    expect(regression).toMatchObject({ kind: 'action_item', assignee: 'QA Team', dueText: 'Wednesday', startMs: 42_000, status: 'open' });
    expect(before.insights.find((i) => i.text === 'API migration')).toMatchObject({ kind: 'topic', startMs: 23_000, endMs: 41_000 });

    const credentials = before.insights.find((i) => i.text.startsWith('Get production credentials'))!;
    const dismissed = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/meetings/${target.id}/notes/items/${credentials.id}`,
      payload: { status: 'dismissed' },
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(dismissed.statusCode).toBe(200);
    await t.deps.database.db
      .updateTable('meeting_notes')
      .set({ status: 'failed', failure_reason: 'The LLM at http://10.0.0.7:8080 refused the key' })
      .where('meeting_id', '=', target.id)
      .execute();
    const after = await view(link.token);
    const shared = z.strictObject(SharedMeetingSchema.shape).parse(after.body);
    expect(shared.insights.map((i) => i.id)).not.toContain(credentials.id);
    expect(shared.insights).toHaveLength(before.insights.length - 1);
    // The reader learns the notes failed, not why: the reason may name the owner's own setup.
    expect(shared.notes).toEqual({ status: 'failed' });
    expect(after.raw).not.toContain('10.0.0.7');
    expect(after.raw).not.toContain(user.id);
    expect(after.raw).not.toContain(user.email);
  });

  it('shows the meeting as it is now, not as it was when shared', async () => {
    const link = await share(owner, meeting.id);
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/meetings/${meeting.id}`,
      payload: { title: 'Standup, renamed' },
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(renamed.statusCode).toBe(200);
    expect((await view(link.token)).body).toMatchObject({ title: 'Standup, renamed' });
  });

  it('revokes a link: it 404s at once, leaves the list, and cannot be revoked twice', async () => {
    const keep = await share(owner, meeting.id);
    const link = await share(owner, meeting.id);
    const revoked = await api(owner, 'DELETE', `/api/v1/meetings/${meeting.id}/share/${link.id}`);
    expect(revoked).toMatchObject({ status: 200, body: { revoked: true } });
    const gone = await view(link.token);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: { code: 'NOT_FOUND', message: 'This share link does not exist or has been revoked' } });
    const items = ShareLinkListSchema.parse((await api(owner, 'GET', `/api/v1/meetings/${meeting.id}/share`)).body).items;
    expect(items.map((i) => i.id)).not.toContain(link.id);
    expect(items.map((i) => i.id)).toContain(keep.id);
    expect((await api(owner, 'DELETE', `/api/v1/meetings/${meeting.id}/share/${link.id}`)).status).toBe(404);
    // Revoking one link leaves the others working.
    expect((await view(keep.token)).status).toBe(200);
  });

  it('dies with its meeting', async () => {
    const user = await newUser();
    const target = await meetingTitled(user, 'Engineering Retrospective');
    const link = await share(user, target.id);
    expect((await api(user, 'DELETE', `/api/v1/meetings/${target.id}`)).status).toBe(200);
    expect((await view(link.token)).status).toBe(404);
    const rows = await t.deps.database.db.selectFrom('share_links').select('id').where('id', '=', link.id).execute();
    expect(rows).toEqual([]);
  });

  it('answers a token that never existed with 404 and a malformed one with 400', async () => {
    expect((await view(crypto.randomBytes(32).toString('base64url'))).status).toBe(404);
    const malformed = await view('not-a-token');
    expect(malformed.status).toBe(400);
    expect((malformed.body as { error: { code: string } }).error.code).toBe('VALIDATION_FAILED');
    expect((await api(owner, 'POST', '/api/v1/meetings/not-a-uuid/share')).status).toBe(400);
    expect((await api(owner, 'DELETE', `/api/v1/meetings/${meeting.id}/share/not-a-uuid`)).status).toBe(400);
  });

  it(`caps a meeting at ${MAX_ACTIVE_LINKS_PER_MEETING} active links`, async () => {
    const user = await newUser();
    const target = await meetingTitled(user, 'Client Onboarding: Acme Corp');
    const links: CreatedShareLink[] = [];
    for (let i = 0; i < MAX_ACTIVE_LINKS_PER_MEETING; i += 1) links.push(await share(user, target.id));
    const over = await api(user, 'POST', `/api/v1/meetings/${target.id}/share`);
    expect(over.status).toBe(409);
    expect((over.body as { error: { message: string } }).error.message).toMatch(/Revoke one/);
    await api(user, 'DELETE', `/api/v1/meetings/${target.id}/share/${links[0]!.id}`);
    expect((await api(user, 'POST', `/api/v1/meetings/${target.id}/share`)).status).toBe(201);
  });
});

describe('authorization', () => {
  it("a second user can neither share, list nor revoke the first's links", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const meeting = await meetingTitled(owner, 'Weekly Team Standup');
    const link = await share(owner, meeting.id);
    const own = await meetingTitled(stranger, 'Weekly Team Standup');

    const attempts = [
      await api(stranger, 'POST', `/api/v1/meetings/${meeting.id}/share`),
      await api(stranger, 'GET', `/api/v1/meetings/${meeting.id}/share`),
      await api(stranger, 'DELETE', `/api/v1/meetings/${meeting.id}/share/${link.id}`),
      // Their own meeting's id with the owner's link id must not reach it either.
      await api(stranger, 'DELETE', `/api/v1/meetings/${own.id}/share/${link.id}`),
    ];
    expect(attempts.map((a) => a.status)).toEqual([404, 404, 404, 404]);
    expect((await view(link.token)).status).toBe(200);
    const ownerLinks = ShareLinkListSchema.parse((await api(owner, 'GET', `/api/v1/meetings/${meeting.id}/share`)).body).items;
    expect(ownerLinks.map((l) => l.id)).toEqual([link.id]);
    const strangerLinks = ShareLinkListSchema.parse((await api(stranger, 'GET', `/api/v1/meetings/${own.id}/share`)).body).items;
    expect(strangerLinks).toEqual([]);
  });

  it('needs a signed-in owner for everything but the public view', async () => {
    const owner = await newUser();
    const meeting = await meetingTitled(owner, 'Weekly Team Standup');
    const link = await share(owner, meeting.id);
    expect((await api(undefined, 'POST', `/api/v1/meetings/${meeting.id}/share`)).status).toBe(401);
    expect((await api(undefined, 'GET', `/api/v1/meetings/${meeting.id}/share`)).status).toBe(401);
    expect((await api(undefined, 'DELETE', `/api/v1/meetings/${meeting.id}/share/${link.id}`)).status).toBe(401);
    expect((await view(link.token)).status).toBe(200);
  });
});
