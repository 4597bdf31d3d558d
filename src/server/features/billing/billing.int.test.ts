import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { LIVE_CLOSE, LiveServerMessageSchema, type LiveServerMessage } from '#shared/contracts/live.ts';
import type { PlanId } from '#shared/contracts/billing.ts';
import { localBlobPath } from '#server/lib/blob-store.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { createPeople } from '../auth/people.ts';
import { plansCommand, PLANS_USAGE } from './plans-command.ts';

// Plans on an installation without billing configured (the default): nobody is limited until the
// administrator assigns a plan (`npm run plans`), then that account's limits apply, each refused
// with the plan named and the way up, and allowed on the plan that includes it.
let t: TestApp;
/** The server's clock: the real time (meetings are stamped with it), unless a test moves it on. */
let movedTo: Date | undefined;
beforeAll(async () => {
  t = await buildTestApp({ listen: true, env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' }, deps: { clock: { now: () => movedTo ?? new Date() } } });
});
const thisMonth = () => {
  const now = new Date();
  return { start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)), end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)) };
};
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = async (bearer: string, method: Method, url: string, payload?: object) => {
  const response = await t.app.inject({ method, url, headers: { authorization: `Bearer ${bearer}` }, ...(payload ? { payload } : {}) });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several shapes, each asserted field by field
  return { status: response.statusCode, body: response.json() as Record<string, any> };
};

const person = async (plan?: PlanId) => {
  const user = await signUpUser(t.app, 'plans');
  if (plan) await t.deps.services.billing.assign(user.userId, plan);
  return user;
};
/** A refusal as the API answers it: the plan the message names is in `details.plan` too. */
const planLimit = (message: string) => ({ error: { code: 'PLAN_LIMIT', message, details: { plan: /[Yy]our (\w+) plan/.exec(message)?.[1]?.toLowerCase() } } });

/** A WebVTT transcript whose last line ends at `minutes`. */
const transcript = (minutes: number) => {
  const end = new Date(minutes * 60_000).toISOString().slice(11, 23);
  return `WEBVTT\n\n00:00:00.000 --> 00:00:05.000\n<v Ada>We start.\n\n00:00:05.000 --> ${end}\n<v Ben>And we end.\n`;
};
const importHours = (token: string, minutes: number) => call(token, 'POST', '/api/v1/meetings/imports', { fileName: 'call.vtt', content: transcript(minutes) });

/** Moves a meeting's arrival `days` back, and its hours with it (what plans hide by, and the month its hours count in). */
const ageMeeting = async (id: string, days: number) => {
  const at = new Date(Date.now() - days * 86_400_000).toISOString();
  await t.database.db.updateTable('meetings').set({ created_at: at }).where('id', '=', id).execute();
  await t.database.db.updateTable('billing_usage').set({ counted_at: at }).where('meeting_id', '=', id).execute();
};

describe('plans without billing configured', () => {
  it('limit nobody by default: Billing says no plan applies, and counts the month', async () => {
    const { token } = await person();
    expect((await importHours(token, 6 * 60)).status).toBe(201);
    const second = await importHours(token, 30);
    expect(second.status).toBe(201);
    expect((await call(token, 'POST', '/api/v1/meetings', { title: 'Big call', participants: ['A', 'B', 'C', 'D'] })).status).toBe(201);
    const exported = await t.app.inject({ url: `/api/v1/meetings/${second.body.id}/export?format=vtt`, headers: { authorization: `Bearer ${token}` } });
    expect(exported.statusCode).toBe(200);
    expect((await call(token, 'POST', '/api/v1/tokens', { name: 'script', scopes: ['read'] })).status).toBe(201);
    expect((await call(token, 'POST', '/api/v1/teams', { name: 'Everyone' })).status).toBe(201);
    await ageMeeting(second.body.id, 400);
    expect((await call(token, 'GET', `/api/v1/meetings/${second.body.id}`)).status).toBe(200);

    const overview = await call(token, 'GET', '/api/v1/billing');
    expect(overview).toEqual({
      status: 200,
      body: {
        billing: false,
        plan: null,
        subscription: null,
        trialAvailable: false,
        paymentFailure: null,
        // The aged meeting is no longer this month's; the samples never count.
        usage: {
          hoursThisMonth: 6,
          meetingsThisMonth: 2,
          periodStart: thisMonth().start.toISOString(),
          periodEnd: thisMonth().end.toISOString(),
          hiddenMeetings: 0,
        },
      },
    });
  });

  it('an assigned plan shows in Billing with its limits', async () => {
    const { token } = await person('pro');
    const overview = await call(token, 'GET', '/api/v1/billing');
    expect(overview.body.plan).toEqual({
      id: 'pro',
      name: 'Pro',
      source: 'administrator',
      limits: {
        hoursPerMonth: 30,
        participantsPerMeeting: null,
        exportFormats: ['txt', 'docx', 'pdf'],
        historyDays: 30,
        liveTranscription: true,
        apiAccess: false,
        teamManagement: false,
        customVocabulary: true,
      },
    });
  });
});

describe('transcription hours per month', () => {
  it('refuse recording, upload and import once used, with the hours used; a new month or a bigger plan allows again', async () => {
    const { token, userId } = await person('free');
    expect((await importHours(token, 4 * 60)).status).toBe(201);
    // Under the 5 hours still: this one is allowed and takes the month past them.
    expect((await importHours(token, 90)).status).toBe(201);

    const renews = thisMonth().end.toLocaleDateString('en-US', { month: 'long', day: 'numeric', timeZone: 'UTC' });
    const refused = planLimit(
      `Your Free plan includes 5 transcription hours a month and you have used 5.5 this month, so nothing more can be recorded, uploaded or imported until ${renews}. Ask the administrator of this installation to move your account to the Pro plan for 30 hours a month.`,
    );
    expect(await call(token, 'POST', '/api/v1/meetings', { title: 'Record' })).toEqual({ status: 403, body: refused });
    expect(await call(token, 'POST', '/api/v1/meetings', { title: 'Upload', source: 'upload' })).toEqual({ status: 403, body: refused });
    expect(await importHours(token, 1)).toEqual({ status: 403, body: refused });
    expect((await call(token, 'GET', '/api/v1/billing')).body.usage).toMatchObject({ hoursThisMonth: 5.5, meetingsThisMonth: 2 });

    await t.deps.services.billing.assign(userId, 'pro');
    expect((await call(token, 'POST', '/api/v1/meetings', { title: 'Record' })).status).toBe(201);
    await t.deps.services.billing.assign(userId, 'free');
    // The first second of next month: this month's hours no longer count.
    movedTo = new Date(thisMonth().end.getTime() + 1000);
    try {
      expect((await call(token, 'POST', '/api/v1/meetings', { title: 'New month' })).status).toBe(201);
    } finally {
      movedTo = undefined;
    }
  });
});

describe('transcription hours once used', () => {
  const hoursUsed = async (token: string) => (await call(token, 'GET', '/api/v1/billing')).body.usage.hoursThisMonth as number;

  it('stay used when the meeting is deleted: transcribe, delete and transcribe again is refused past the plan', async () => {
    const { token } = await person('free');
    const first = await importHours(token, 4 * 60);
    expect(first.status).toBe(201);
    expect(await call(token, 'DELETE', `/api/v1/meetings/${first.body.id}`)).toMatchObject({ status: 200 });
    expect((await call(token, 'GET', '/api/v1/billing')).body.usage).toMatchObject({ hoursThisMonth: 4, meetingsThisMonth: 0 });
    const second = await importHours(token, 90);
    expect(second.status).toBe(201);
    expect((await call(token, 'DELETE', `/api/v1/meetings/${second.body.id}`)).status).toBe(200);
    expect(await hoursUsed(token)).toBe(5.5);
    expect(await importHours(token, 1)).toMatchObject({ status: 403, body: { error: { code: 'PLAN_LIMIT' } } });
  });

  it('a recording is counted once accepted for transcription, given back if it fails for good, counted again on Retry', async () => {
    const { token, userId } = await person('free');
    const created = await call(token, 'POST', '/api/v1/meetings', { title: 'Broken recording', source: 'upload' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    // Bytes no decoder reads, stored as a finished upload stores them: the transcription fails for good.
    const file = path.join(os.tmpdir(), `parley-broken-${crypto.randomUUID()}.wav`);
    fs.writeFileSync(file, 'not audio at all');
    const key = await t.deps.blobs.adopt(file, 'wav', { ownerId: userId, kind: 'recording' });
    expect(await hoursUsed(token)).toBe(0);
    await t.deps.services.meetings.recordingStored(id, { key, mime: 'audio/wav', bytes: 16, durationSeconds: 2 * 3600 });
    // Counted as it is accepted, before any transcription runs.
    expect(await hoursUsed(token)).toBe(2);

    const status = async () => (await call(token, 'GET', `/api/v1/meetings/${id}`)).body.status as string;
    await expect.poll(status, { timeout: 20_000, interval: 100 }).toBe('failed');
    expect(await hoursUsed(token)).toBe(0);

    // The recording mended (a second of silence) and retried: it counts again, and stays counted once transcribed.
    execFileSync('ffmpeg', [
      '-nostdin',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=16000:cl=mono',
      '-t',
      '1',
      '-f',
      'wav',
      localBlobPath(t.config.dataDir, key),
    ]);
    expect((await call(token, 'POST', `/api/v1/meetings/${id}/retry`)).status).toBe(202);
    await expect.poll(status, { timeout: 30_000, interval: 100 }).toBe('ready');
    expect(await hoursUsed(token)).toBe(2);
  });
});

describe('Retry after a failed transcription', () => {
  it('is refused as a new upload is once the month’s hours are used, and the meeting stays failed; a bigger plan allows it', async () => {
    const { token, userId } = await person('free');
    const created = await call(token, 'POST', '/api/v1/meetings', { title: 'Broken recording', source: 'upload' });
    const id = created.body.id as string;
    const file = path.join(os.tmpdir(), `parley-broken-${crypto.randomUUID()}.wav`);
    fs.writeFileSync(file, 'not audio at all');
    const key = await t.deps.blobs.adopt(file, 'wav', { ownerId: userId, kind: 'recording' });
    await t.deps.services.meetings.recordingStored(id, { key, mime: 'audio/wav', bytes: 16, durationSeconds: 3600 });
    const status = async () => (await call(token, 'GET', `/api/v1/meetings/${id}`)).body.status as string;
    await expect.poll(status, { timeout: 20_000, interval: 100 }).toBe('failed');
    // Its hour was given back; these imports use the month's 5 hours meanwhile.
    expect((await importHours(token, 4 * 60)).status).toBe(201);
    expect((await importHours(token, 90)).status).toBe(201);

    const renews = thisMonth().end.toLocaleDateString('en-US', { month: 'long', day: 'numeric', timeZone: 'UTC' });
    const refused = planLimit(
      `Your Free plan includes 5 transcription hours a month and you have used 5.5 this month, so nothing more can be recorded, uploaded or imported until ${renews}. Ask the administrator of this installation to move your account to the Pro plan for 30 hours a month.`,
    );
    expect(await call(token, 'POST', `/api/v1/meetings/${id}/retry`)).toEqual({ status: 403, body: refused });
    expect(await call(token, 'POST', '/api/v1/meetings', { title: 'Upload', source: 'upload' })).toEqual({ status: 403, body: refused });
    expect(await status()).toBe('failed');
    expect((await call(token, 'GET', '/api/v1/billing')).body.usage.hoursThisMonth).toBe(5.5);

    await t.deps.services.billing.assign(userId, 'pro');
    expect((await call(token, 'POST', `/api/v1/meetings/${id}/retry`)).status).toBe(202);
    expect((await call(token, 'GET', '/api/v1/billing')).body.usage.hoursThisMonth).toBe(6.5);
    // The same unreadable bytes: it fails again, and the hour is given back again.
    await expect.poll(status, { timeout: 20_000, interval: 100 }).toBe('failed');
  });
});

describe('participants per meeting', () => {
  it('Free lists two at most, on a new meeting and an edit; Pro any number', async () => {
    const { token, userId } = await person('free');
    const refused = planLimit(
      'Your Free plan allows 2 participants per meeting; this meeting lists 3. Ask the administrator of this installation to move your account to the Pro plan for unlimited participants.',
    );
    expect(await call(token, 'POST', '/api/v1/meetings', { title: 'Three', participants: ['Ada', 'Ben', 'Cy'] })).toEqual({ status: 403, body: refused });
    const two = await call(token, 'POST', '/api/v1/meetings', { title: 'Two', participants: ['Ada', 'Ben'] });
    expect(two.status).toBe(201);
    expect(await call(token, 'PATCH', `/api/v1/meetings/${two.body.id}`, { participants: ['Ada', 'Ben', 'Cy'] })).toEqual({ status: 403, body: refused });
    expect((await call(token, 'GET', `/api/v1/meetings/${two.body.id}`)).body.participants).toEqual(['Ada', 'Ben']);

    await t.deps.services.billing.assign(userId, 'pro');
    expect((await call(token, 'PATCH', `/api/v1/meetings/${two.body.id}`, { participants: ['Ada', 'Ben', 'Cy'] })).status).toBe(200);
  });
});

describe('export formats', () => {
  it('Free exports text; Pro adds DOCX and PDF; Business every format', async () => {
    const { token, userId } = await person('free');
    const { body: meeting } = await importHours(token, 10);
    const exportAs = async (format: string) =>
      (await t.app.inject({ url: `/api/v1/meetings/${meeting.id}/export?format=${format}`, headers: { authorization: `Bearer ${token}` } })).statusCode;
    const refusal = async (format: string) => (await call(token, 'GET', `/api/v1/meetings/${meeting.id}/export?format=${format}`)).body;

    expect(await exportAs('txt')).toBe(200);
    expect(await refusal('docx')).toEqual(
      planLimit(
        'Your Free plan exports as text only; DOCX is not included. Ask the administrator of this installation to move your account to the Pro plan for export as text, DOCX and PDF.',
      ),
    );
    await t.deps.services.billing.assign(userId, 'pro');
    expect(await exportAs('docx')).toBe(200);
    expect(await exportAs('pdf')).toBe(200);
    expect(await refusal('srt')).toEqual(
      planLimit(
        'Your Pro plan exports as text, DOCX and PDF only; SRT is not included. Ask the administrator of this installation to move your account to the Business plan for all export formats.',
      ),
    );
    await t.deps.services.billing.assign(userId, 'business');
    expect(await exportAs('srt')).toBe(200);
    expect(await exportAs('md')).toBe(200);
  });
});

describe('history length', () => {
  it('hides meetings older than the plan keeps in sight, everywhere they are read, and never deletes them', async () => {
    const { token, userId } = await person('free');
    const { body: recent } = await importHours(token, 10);
    const { body: old } = await importHours(token, 10);
    await ageMeeting(old.id, 8);
    await call(token, 'DELETE', '/api/v1/meetings/samples');

    const ids = async () => ((await call(token, 'GET', '/api/v1/meetings')).body.items as { id: string }[]).map((m) => m.id);
    expect(await ids()).toEqual([recent.id]);
    expect((await call(token, 'GET', `/api/v1/meetings/${old.id}`)).status).toBe(404);
    expect((await call(token, 'GET', `/api/v1/meetings/${old.id}/export?format=txt`)).status).toBe(404);
    expect((await call(token, 'GET', '/api/v1/billing')).body.usage.hiddenMeetings).toBe(1);

    await t.deps.services.billing.assign(userId, 'pro');
    expect((await ids()).sort()).toEqual([recent.id, old.id].sort());
    expect((await call(token, 'GET', `/api/v1/meetings/${old.id}`)).status).toBe(200);
    await ageMeeting(old.id, 31);
    expect(await ids()).toEqual([recent.id]);
    await t.deps.services.billing.assign(userId, 'business');
    expect((await ids()).sort()).toEqual([recent.id, old.id].sort());
  });
});

describe('real-time transcription', () => {
  const liveAnswer = async (token: string, meetingId: string) => {
    const socket = new WebSocket(`${t.baseUrl.replace('http', 'ws')}/realtime/live`);
    const messages: LiveServerMessage[] = [];
    socket.on('message', (data) => messages.push(LiveServerMessageSchema.parse(JSON.parse(String(data)))));
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.send(JSON.stringify({ type: 'auth', accessToken: token, meetingId }));
    // Either answer ends the wait: a refusal closes, an allowed session says it is in line or ready.
    await expect
      .poll(async () => messages.length > 0 || (await Promise.race([closed, Promise.resolve(undefined)])) !== undefined, { timeout: 15_000 })
      .toBe(true);
    socket.close();
    return { messages, code: await closed };
  };

  it('is refused on Free with the plan named, and not on Pro', async () => {
    const { token, userId } = await person('free');
    const meeting = await call(token, 'POST', '/api/v1/meetings', { title: 'Live' });
    const refused = await liveAnswer(token, meeting.body.id);
    expect(refused.code).toBe(LIVE_CLOSE.planLimit);
    expect(refused.messages).toEqual([
      {
        type: 'error',
        message:
          'Real-time transcription is not included in your Free plan; the recording goes on and is transcribed once saved. Ask the administrator of this installation to move your account to the Pro plan for real-time transcription.',
      },
    ]);

    await t.deps.services.billing.assign(userId, 'pro');
    const allowed = await liveAnswer(token, meeting.body.id);
    expect(allowed.code).not.toBe(LIVE_CLOSE.planLimit);
    expect(allowed.messages.filter((m) => m.type === 'error' && m.message.includes('plan'))).toEqual([]);
  });
});

describe('API access', () => {
  it('tokens are made on Business only, and stop working when the plan no longer includes them', async () => {
    const { token, userId } = await person('pro');
    const refused = planLimit(
      'API access is not included in your Pro plan. Ask the administrator of this installation to move your account to the Business plan for API access.',
    );
    expect(await call(token, 'POST', '/api/v1/tokens', { name: 'script', scopes: ['read'] })).toEqual({ status: 403, body: refused });

    await t.deps.services.billing.assign(userId, 'business');
    const created = await call(token, 'POST', '/api/v1/tokens', { name: 'script', scopes: ['read'] });
    expect(created.status).toBe(201);
    expect((await call(created.body.token, 'GET', '/api/v1/meetings')).status).toBe(200);

    await t.deps.services.billing.assign(userId, 'pro');
    expect(await call(created.body.token, 'GET', '/api/v1/meetings')).toEqual({ status: 403, body: refused });
  });
});

describe('team management', () => {
  it('creating a team and inviting need Business; joining does not', async () => {
    const owner = await person('pro');
    const refused = planLimit(
      'Team management (creating teams and inviting members) is not included in your Pro plan. Ask the administrator of this installation to move your account to the Business plan for team management.',
    );
    expect(await call(owner.token, 'POST', '/api/v1/teams', { name: 'Design' })).toEqual({ status: 403, body: refused });

    await t.deps.services.billing.assign(owner.userId, 'business');
    const team = await call(owner.token, 'POST', '/api/v1/teams', { name: 'Design' });
    expect(team.status).toBe(201);
    const invited = await call(owner.token, 'POST', `/api/v1/teams/${team.body.id}/invitations`, { role: 'member' });
    expect(invited.status).toBe(201);

    const joiner = await person('free');
    expect((await call(joiner.token, 'POST', `/api/v1/invitations/${invited.body.token}/accept`)).status).toBe(200);

    await t.deps.services.billing.assign(owner.userId, 'free');
    const again = await call(owner.token, 'POST', `/api/v1/teams/${team.body.id}/invitations`, { role: 'member' });
    expect(again.body.error.code).toBe('PLAN_LIMIT');
  });
});

describe('npm run plans', () => {
  it('sets a plan by email, lists the assignments, refuses what it cannot do, and takes a plan away', async () => {
    const { token, email } = await person();
    const now = new Date();
    const run = (...args: string[]) => plansCommand(t.database.db, args, { accounts: createPeople(t.database.db), billing: false, now });
    expect(await run('set', email.toUpperCase(), 'Business')).toEqual({
      code: 0,
      lines: [`${email.toUpperCase()} is on the Business plan: its limits apply from now on.`],
    });
    expect((await call(token, 'GET', '/api/v1/billing')).body.plan).toMatchObject({ id: 'business', source: 'administrator' });
    const listed = await run('list');
    expect(listed.code).toBe(0);
    expect(listed.lines).toContain(`${email}  Business  (since ${now.toISOString()})`);
    expect(listed.lines.at(-1)).toBe('Billing is not configured: accounts without an assigned plan have no limits.');

    expect(await run('set', email, 'gold')).toEqual({ code: 2, lines: ['There is no plan "gold".', PLANS_USAGE] });
    expect(await run('set', 'nobody@example.com', 'pro')).toEqual({ code: 1, lines: ['No account has the email nobody@example.com.'] });
    expect(await run('set', email)).toEqual({ code: 2, lines: [PLANS_USAGE] });

    expect(await run('set', email, 'none')).toEqual({
      code: 0,
      lines: [`${email} no longer has an assigned plan.`, 'Billing is not configured: accounts without an assigned plan have no limits.'],
    });
    expect((await call(token, 'GET', '/api/v1/billing')).body.plan).toBeNull();
    expect((await run('list')).lines).not.toContain(`${email}  Business  (since ${now.toISOString()})`);
  });
});
