import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TeamsSyncStateSchema, type TeamsSyncState } from '#shared/contracts/teams-sync.ts';
import { MeetingDetailSchema } from '#shared/contracts/meetings.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { startFakeMicrosoft, teamsVtt, toneWav, type FakeMicrosoft, type FakeTeamsMeeting } from '#tests/support/fake-microsoft.ts';
import { createFakeSpeakerIdentifier, createFakeSpeechEngine } from '#tests/support/fake-speech.ts';

/**
 * Connect Microsoft account and the Teams meeting sync against a local Microsoft (tests/support/
 * fake-microsoft.ts): the identity platform's code flow with PKCE and Graph's calendarView,
 * onlineMeetings, transcripts and recordings, paged, with its errors. Real HTTP, real oauth4webapi,
 * the real job queue.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

let ms: FakeMicrosoft;
let t: TestApp;
const meeting = (n: number, extra: Partial<FakeTeamsMeeting> = {}): FakeTeamsMeeting => {
  const start = new Date(Date.now() - n * DAY);
  start.setUTCMinutes(0, 0, 0);
  return {
    eventId: `event-${n}`,
    subject: `Planning ${n}`,
    start: start.toISOString(),
    end: new Date(start.getTime() + HOUR).toISOString(),
    joinUrl: `https://teams.microsoft.com/l/meetup-join/19%3ameeting_${n}%40thread.v2/0?context=%7b%22Tid%22%3a%22t%22%7d`,
    onlineMeetingId: `MSo1N2Y5ZGFjYy03MWJmLTQ3NDMtYjQxMy01M2EdFGkdRWHJlQ_${n}`,
    organizer: { name: 'Ada Lovelace', address: 'ada@contoso.com' },
    attendees: [
      { name: 'Grace Hopper', address: 'grace@contoso.com' },
      { name: 'Board Room', address: 'boardroom@contoso.com', type: 'resource' },
    ],
    transcripts: [
      {
        id: `MSMjMCMjZTk1NjE5OTgtNGQ0Ni00NjZkLWJlNDgtMjZhYmRiNDQxMzUz_${n}`,
        createdDateTime: new Date(start.getTime() + 60_000).toISOString().replace('Z', '1234Z'),
        contentCorrelationId: `corr-${n}`,
        vtt: teamsVtt([
          ['Ada Lovelace', `Welcome to planning ${n}.`],
          ['Grace Hopper', 'Thanks, the numbers are ready.'],
          ['Ada Lovelace', 'Then let us start.'],
        ]),
      },
    ],
    recordings: [{ id: `rec-${n}`, createdDateTime: new Date(start.getTime() + 30_000).toISOString(), contentCorrelationId: `corr-${n}` }],
    ...extra,
  };
};

beforeAll(async () => {
  ms = await startFakeMicrosoft({ clientId: 'parley-app-id', clientSecret: 'microsoft-secret' });
  t = await buildTestApp({
    env: {
      AUTH_AUTOCONFIRM: 'true',
      AUTH_RATE_LIMITS: 'false',
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      MICROSOFT_CLIENT_ID: 'parley-app-id',
      MICROSOFT_CLIENT_SECRET: 'microsoft-secret',
      MICROSOFT_LOGIN_URL: ms.loginUrl,
      MICROSOFT_GRAPH_URL: ms.graphUrl,
      // Long enough on a machine busy with the whole suite; the timeout case waits it out.
      MICROSOFT_TIMEOUT_SECONDS: '5',
    },
    // Recordings without a Teams transcript go through the real pipeline (ffmpeg) with a stand-in recogniser.
    deps: { clock, speech: { engine: createFakeSpeechEngine(), speakers: createFakeSpeakerIdentifier() } },
  });
});
afterAll(async () => {
  await t?.close();
  await ms?.close();
});
beforeEach(() => {
  ms.heal();
  ms.oauth.behave('ok');
  ms.oauth.setExpiresIn(3600);
  offsetMs = 0;
  ms.meetings.splice(0, ms.meetings.length, meeting(1), meeting(2), meeting(3));
});

const call = async (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => {
  const response = await t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
};
const state = async (token: string): Promise<TeamsSyncState> =>
  TeamsSyncStateSchema.parse((await call(token, 'GET', '/api/v1/integrations/teams/account')).body);

/** The person approves at Microsoft: the browser comes back with the code and state. */
async function approve(token: string): Promise<{ state: string; code?: string; error?: string }> {
  const started = await call(token, 'POST', '/api/v1/integrations/teams/account/start');
  expect(started.status).toBe(200);
  const back = new URL((await fetch(started.body.authorizationUrl as string, { redirect: 'manual' })).headers.get('location') ?? '');
  const code = back.searchParams.get('code');
  const error = back.searchParams.get('error');
  return { state: back.searchParams.get('state') ?? '', ...(code ? { code } : {}), ...(error ? { error } : {}) };
}
async function connect(token: string): Promise<TeamsSyncState> {
  const finished = await call(token, 'POST', '/api/v1/integrations/teams/account/finish', await approve(token));
  expect(finished.status).toBe(200);
  await t.deps.jobs.idle();
  return state(token);
}
const syncNow = async (token: string): Promise<TeamsSyncState> => {
  const queued = await call(token, 'POST', '/api/v1/integrations/teams/account/sync');
  expect(queued.status).toBe(202);
  await t.deps.jobs.idle();
  return state(token);
};
const teamsMeetings = async (token: string) =>
  ((await call(token, 'GET', '/api/v1/meetings?pageSize=100')).body.items as { id: string; title: string; participants: string[]; status: string }[])
    .filter((m) => m.title.startsWith('Planning'))
    .sort((a, b) => a.title.localeCompare(b.title));

describe('Connect Microsoft account', () => {
  it('asks for the delegated scopes with PKCE, keeps the tokens sealed, names the account, and a state opens once', async () => {
    const { token, userId } = await signUpUser(t.app, 'ms-connect');
    expect(await state(token)).toMatchObject({
      available: true,
      connected: false,
      redirectUri: `${t.baseUrl}/settings/connections/microsoft`,
    });
    const started = await call(token, 'POST', '/api/v1/integrations/teams/account/start');
    const authorizationUrl = new URL(started.body.authorizationUrl as string);
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(`${ms.loginUrl}/common/oauth2/v2.0/authorize`);
    expect(authorizationUrl.searchParams.get('scope')).toBe(
      'OnlineMeetings.Read OnlineMeetingTranscript.Read.All OnlineMeetingRecording.Read.All Calendars.Read offline_access',
    );
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('redirect_uri')).toBe(`${t.baseUrl}/settings/connections/microsoft`);

    const callback = await approve(token);
    const finished = await call(token, 'POST', '/api/v1/integrations/teams/account/finish', callback);
    expect(finished.status).toBe(200);
    expect(TeamsSyncStateSchema.parse(finished.body)).toMatchObject({ connected: true, account: 'Ada Lovelace (ada@contoso.com)', needsReconnect: false });
    // The code was redeemed with its PKCE verifier (the local server checks it against the challenge).
    expect(ms.oauth.tokenRequests.at(-1)?.form).toMatchObject({
      grant_type: 'authorization_code',
      redirect_uri: `${t.baseUrl}/settings/connections/microsoft`,
    });
    expect(ms.oauth.tokenRequests.at(-1)?.form.code_verifier).toMatch(/^[\w-]{43,}$/);
    // A state opens once.
    expect((await call(token, 'POST', '/api/v1/integrations/teams/account/finish', callback)).status).toBe(400);

    const row = await t.database.db.selectFrom('teams_sync_accounts').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(row.tokens.startsWith('enc:')).toBe(true);
    expect(row.tokens).not.toMatch(/at-|rt-/);
    await t.deps.jobs.idle();
  });

  it('says no when the person declines at Microsoft, and refuses another person’s callback', async () => {
    const ada = await signUpUser(t.app, 'ms-decline');
    const eve = await signUpUser(t.app, 'ms-eve');
    ms.oauth.setDeny(true);
    try {
      const declined = await call(ada.token, 'POST', '/api/v1/integrations/teams/account/finish', await approve(ada.token));
      expect(declined.status).toBe(400);
      expect((declined.body.error as { message: string }).message).toBe(
        'Access was not granted at Microsoft, so nothing was connected. Connect again to allow it.',
      );
    } finally {
      ms.oauth.setDeny(false);
    }
    const stolen = await call(eve.token, 'POST', '/api/v1/integrations/teams/account/finish', await approve(ada.token));
    expect(stolen.status).toBe(400);
    expect((await state(eve.token)).connected).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/integrations/teams/account' })).statusCode).toBe(401);
  });
});

describe('the Teams sync', () => {
  it('imports each transcript once, with its speakers and the attendees as participants, following every page', async () => {
    const { token } = await signUpUser(t.app, 'ms-sync');
    const first = await connect(token);
    expect(first).toMatchObject({ lastError: null, importedCount: 3, lastImported: 3, sync: null });
    expect(first.lastSyncedAt).not.toBeNull();
    // calendarView over a window, UTC, every page (two events a page, four events).
    const views = ms.requests.filter((r) => r.startsWith('/me/calendarView'));
    expect(new URLSearchParams(views.at(-2)?.split('?')[1]).get('startDateTime')).toMatch(/Z$/);
    expect(views.at(-1)).toMatch(/\$skiptoken=2/);

    const imported = await teamsMeetings(token);
    expect(imported.map((m) => [m.title, m.participants])).toEqual([
      ['Planning 1', ['Ada Lovelace', 'Grace Hopper']],
      ['Planning 2', ['Ada Lovelace', 'Grace Hopper']],
      ['Planning 3', ['Ada Lovelace', 'Grace Hopper']],
    ]);
    const detail = MeetingDetailSchema.parse((await call(token, 'GET', `/api/v1/meetings/${imported[0]!.id}`)).body);
    const names = new Map(detail.speakers.map((s) => [s.id, s.displayName ?? s.label]));
    expect(detail.segments.map((s) => [names.get(s.speakerId ?? ''), s.text])).toEqual([
      ['Ada Lovelace', 'Welcome to planning 1.'],
      ['Grace Hopper', 'Thanks, the numbers are ready.'],
      ['Ada Lovelace', 'Then let us start.'],
    ]);
    expect(detail.startedAt.slice(0, 16)).toBe(new Date(Date.parse(ms.meetings[0]!.start) + 60_000).toISOString().slice(0, 16));

    // A second run imports nothing again; a transcript that appeared since is imported.
    expect(await syncNow(token)).toMatchObject({ importedCount: 3, lastImported: 0, lastError: null });
    expect(await teamsMeetings(token)).toHaveLength(3);
    ms.meetings.push(meeting(4));
    expect(await syncNow(token)).toMatchObject({ importedCount: 4, lastImported: 1 });
    // A meeting the person deleted is not brought back.
    expect((await call(token, 'DELETE', `/api/v1/meetings/${imported[0]!.id}`)).status).toBe(200);
    expect(await syncNow(token)).toMatchObject({ importedCount: 3, lastImported: 0 });
    expect(await teamsMeetings(token)).toHaveLength(3);
  });

  it('transcribes a recording Teams made no transcript of, once, and pages through a meeting’s transcripts', async () => {
    const { token } = await signUpUser(t.app, 'ms-recordings');
    const base = meeting(5);
    const second = {
      ...base.transcripts[0]!,
      id: 'second-transcript',
      contentCorrelationId: 'corr-5b',
      createdDateTime: new Date(Date.parse(base.start) + 20 * 60_000).toISOString(),
    };
    const third = {
      ...base.transcripts[0]!,
      id: 'third-transcript',
      contentCorrelationId: 'corr-5c',
      createdDateTime: new Date(Date.parse(base.start) + 40 * 60_000).toISOString(),
    };
    ms.meetings.splice(0, ms.meetings.length, {
      ...base,
      transcripts: [base.transcripts[0]!, second, third],
      recordings: [
        ...base.recordings,
        { id: 'rec-alone', createdDateTime: base.start, contentCorrelationId: 'corr-alone', content: { type: 'audio/wav', bytes: toneWav(3) } },
      ],
    });
    expect(await connect(token)).toMatchObject({ importedCount: 4, lastImported: 4, lastError: null });
    expect(ms.requests.some((r) => /\/transcripts\?\$skiptoken=2/.test(r))).toBe(true);
    // Only the recording without a transcript was fetched, and it went through transcription.
    expect(ms.requests.filter((r) => r.endsWith('/content'))).toEqual([`/me/onlineMeetings/${base.onlineMeetingId}/recordings/rec-alone/content`]);
    const recorded = (await call(token, 'GET', '/api/v1/meetings?pageSize=100')).body.items as {
      id: string;
      title: string;
      hasAudio: boolean;
      status: string;
      participants: string[];
    }[];
    const fromRecording = recorded.filter((m) => m.hasAudio && m.title === 'Planning 5');
    expect(fromRecording).toHaveLength(1);
    expect(fromRecording[0]).toMatchObject({ status: 'ready', participants: ['Ada Lovelace', 'Grace Hopper'] });
    const detail = MeetingDetailSchema.parse((await call(token, 'GET', `/api/v1/meetings/${fromRecording[0]!.id}`)).body);
    expect(detail.segments.map((s) => s.text)).toEqual(['Line 1 of the recording.']);
    expect(await syncNow(token)).toMatchObject({ importedCount: 4, lastImported: 0 });
  });

  it('a recording whose download breaks off is fetched again by the next sync, into the same meeting', async () => {
    const { token } = await signUpUser(t.app, 'ms-recording-retry');
    const base = meeting(11);
    ms.meetings.splice(0, ms.meetings.length, {
      ...base,
      transcripts: [],
      recordings: [{ id: 'rec-retry', createdDateTime: base.start, contentCorrelationId: 'corr-r', content: { type: 'audio/wav', bytes: toneWav(2) } }],
    });
    ms.fail(/recordings\/rec-retry\/content$/, { status: 503, code: 'ServiceUnavailable', message: 'Try later.' });
    const failed = await connect(token);
    expect(failed.lastError).toBe('Microsoft Graph answered with an error (HTTP 503 ServiceUnavailable: Try later.). The sync tries again in 5 minutes.');
    expect((await teamsMeetings(token)).map((m) => [m.title, m.status])).toEqual([['Planning 11', 'recording']]);
    expect(await syncNow(token)).toMatchObject({ lastError: null, importedCount: 1, lastImported: 1 });
    expect((await teamsMeetings(token)).map((m) => [m.title, m.status])).toEqual([['Planning 11', 'ready']]);
  });

  it('a recording Microsoft will not hand over: its meeting fails with the reason, said on the card', async () => {
    const { token } = await signUpUser(t.app, 'ms-recording-refused');
    const base = meeting(12);
    ms.meetings.splice(0, ms.meetings.length, {
      ...base,
      transcripts: [],
      recordings: [{ id: 'rec-refused', createdDateTime: base.start, contentCorrelationId: 'corr-x', content: { type: 'audio/wav', bytes: toneWav(1) } }],
    });
    ms.fail(/recordings\/rec-refused\/content$/, { status: 403, code: 'Forbidden', message: 'The recording is restricted.' });
    const state = await connect(token);
    const reason = 'Microsoft did not hand over the Teams recording: Microsoft refused access (HTTP 403 Forbidden: The recording is restricted.).';
    expect(state.lastError).toBe(`One meeting was not imported. “Planning 12”: ${reason}`);
    const [failed] = await teamsMeetings(token);
    expect(failed?.status).toBe('failed');
    expect(MeetingDetailSchema.parse((await call(token, 'GET', `/api/v1/meetings/${failed!.id}`)).body).failureReason).toBe(reason);
  });

  it('renews an expiring token with the scopes, as Microsoft wants, and keeps the new refresh token', async () => {
    const { token, userId } = await signUpUser(t.app, 'ms-refresh');
    ms.oauth.setExpiresIn(60); // inside the refresh margin: every use refreshes first
    await connect(token);
    const before = ms.oauth.tokenRequests.filter((r) => r.form.grant_type === 'refresh_token').length;
    expect(await syncNow(token)).toMatchObject({ lastError: null });
    const refreshes = ms.oauth.tokenRequests.filter((r) => r.form.grant_type === 'refresh_token');
    expect(refreshes.length).toBeGreaterThan(before);
    expect(refreshes.at(-1)?.form.scope).toContain('OnlineMeetingTranscript.Read.All');
    // The refresh token is rotated: the next renewal uses the one Microsoft just gave.
    expect(await syncNow(token)).toMatchObject({ lastError: null });
    const row = await t.database.db.selectFrom('teams_sync_accounts').select('tokens').where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(row.tokens.startsWith('enc:')).toBe(true);
  });

  it('syncs every hour on the worker’s schedule', async () => {
    const { token } = await signUpUser(t.app, 'ms-hourly');
    await connect(token);
    const views = () => ms.requests.filter((r) => r.startsWith('/me/calendarView')).length;
    const before = views();
    await t.deps.services.teamsSync.sweepDue();
    await t.deps.jobs.idle();
    expect(views()).toBe(before);
    ms.meetings.push(meeting(6));
    offsetMs = HOUR + 60_000;
    await t.deps.services.teamsSync.sweepDue();
    await t.deps.jobs.idle();
    expect(views()).toBeGreaterThan(before);
    expect((await state(token)).importedCount).toBe(4);
  });

  it('disconnects by forgetting the tokens; imported meetings stay', async () => {
    const { token, userId } = await signUpUser(t.app, 'ms-disconnect');
    await connect(token);
    const disconnected = await call(token, 'DELETE', '/api/v1/integrations/teams/account');
    expect(TeamsSyncStateSchema.parse(disconnected.body)).toMatchObject({ connected: false, account: null });
    expect(await t.database.db.selectFrom('teams_sync_accounts').select('user_id').where('user_id', '=', userId).executeTakeFirst()).toBeUndefined();
    expect(await teamsMeetings(token)).toHaveLength(3);
    expect((await call(token, 'POST', '/api/v1/integrations/teams/account/sync')).status).toBe(409);
    // Connected again: nothing imported twice.
    expect(await connect(token)).toMatchObject({ importedCount: 3, lastImported: 0 });
  });
});

describe('Delete All Data', () => {
  it('forgets the Microsoft connection and the record of what was imported', async () => {
    const { token, userId, email } = await signUpUser(t.app, 'ms-delete-data');
    expect(await connect(token)).toMatchObject({ importedCount: 3 });
    expect((await call(token, 'DELETE', '/api/v1/me/data', { email })).status).toBe(200);
    expect(await t.database.db.selectFrom('teams_sync_accounts').select('user_id').where('user_id', '=', userId).execute()).toEqual([]);
    expect(await t.database.db.selectFrom('teams_sync_imports').select('graph_id').where('user_id', '=', userId).execute()).toEqual([]);
    expect(await state(token)).toMatchObject({ connected: false, importedCount: 0 });
  });
});

describe('Graph’s errors, shown on the card, losing nothing', () => {
  it('401: reconnect needed, and no automatic sync until then', async () => {
    const { token, userId } = await signUpUser(t.app, 'ms-401');
    await connect(token);
    ms.fail(/^\/me\/calendarView/, { status: 401, code: 'InvalidAuthenticationToken', message: 'Lifetime validation failed, the token is expired.' });
    const failed = await syncNow(token);
    expect(failed).toMatchObject({ needsReconnect: true, importedCount: 3 });
    expect(failed.lastError).toBe(
      'Microsoft refused Parley’s access token (HTTP 401 InvalidAuthenticationToken: Lifetime validation failed, the token is expired.). Reconnect your Microsoft account.',
    );
    expect((await call(token, 'POST', '/api/v1/integrations/teams/account/sync')).body.error).toMatchObject({
      message: expect.stringMatching(/reconnect your Microsoft account first/),
    });
    // Only this person's account is left to be due, so any request to Graph would be its sync.
    await t.database.db.deleteFrom('teams_sync_accounts').where('user_id', '!=', userId).execute();
    offsetMs = 2 * HOUR;
    const views = ms.requests.length;
    await t.deps.services.teamsSync.sweepDue();
    await t.deps.jobs.idle();
    expect(ms.requests.length).toBe(views);
    // Reconnecting clears it.
    expect(await connect(token)).toMatchObject({ needsReconnect: false, lastError: null });
  });

  it('a refresh Microsoft refuses (invalid_grant): reconnect needed', async () => {
    const { token } = await signUpUser(t.app, 'ms-invalid-grant');
    ms.oauth.setExpiresIn(60);
    await connect(token);
    ms.oauth.behave('invalid_grant');
    expect(await syncNow(token)).toMatchObject({
      needsReconnect: true,
      lastError: 'Microsoft no longer lets Parley read your meetings (the access was removed or has expired). Reconnect your Microsoft account.',
    });
  });

  it('403, 429 with Retry-After, 5xx, a timeout and malformed JSON: said on the card; what was imported stays, the rest comes next time', async () => {
    const { token, userId } = await signUpUser(t.app, 'ms-errors');
    // A meeting's transcript list fails: the run stops there.
    const afterFirst = async (answer: Parameters<FakeMicrosoft['fail']>[1]) => {
      ms.fail(new RegExp(`onlineMeetings/${ms.meetings[1]!.onlineMeetingId}/transcripts$`), answer);
      return await syncNow(token);
    };
    await connect(token);
    ms.meetings.push(meeting(7), meeting(8));

    ms.fail(/^\/me\/calendarView/, { status: 403, code: 'ErrorAccessDenied', message: 'Access is denied. Check credentials and try again.' });
    const forbidden = await syncNow(token);
    expect(forbidden.lastError).toMatch(
      /^Microsoft refused access \(HTTP 403 ErrorAccessDenied: Access is denied\. Check credentials and try again\.\)\. Parley needs the permissions .* an administrator may have to grant them\. Then reconnect\.$/,
    );
    expect(forbidden).toMatchObject({ needsReconnect: false, importedCount: 3 });

    // Throttled with a short Retry-After: waited out, and the sync goes on.
    ms.fail(/^\/me\/calendarView/, { status: 429, code: 'TooManyRequests', message: 'Please retry again later.', headers: { 'retry-after': '1' } });
    expect(await syncNow(token)).toMatchObject({ lastError: null, importedCount: 5, lastImported: 2 });
    ms.meetings.push(meeting(9), meeting(10));

    // Throttled for long: said, with when it goes on; nothing lost.
    ms.fail(/^\/me\/calendarView/, { status: 429, code: 'TooManyRequests', message: 'Please retry again later.', headers: { 'retry-after': '600' } });
    expect((await syncNow(token)).lastError).toBe(
      'Microsoft Graph is limiting Parley’s requests (HTTP 429 TooManyRequests: Please retry again later.). The sync continues by itself in 10 minutes.',
    );
    const throttledUntil = await t.database.db.selectFrom('teams_sync_accounts').select('next_sync_at').where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(Date.parse(throttledUntil.next_sync_at) - Date.now()).toBeGreaterThan(9 * 60_000);

    ms.fail(/transcripts\/[^/]+\/content/, { status: 503, code: 'ServiceUnavailable', message: 'The service is temporarily unavailable.' });
    const unavailable = await syncNow(token);
    expect(unavailable.lastError).toBe(
      'Microsoft Graph answered with an error (HTTP 503 ServiceUnavailable: The service is temporarily unavailable.). The sync tries again in 5 minutes.',
    );

    const stalled = await afterFirst('stall');
    expect(stalled.lastError).toBe('Microsoft Graph did not answer within 5 s. The sync tries again in 5 minutes.');

    const malformed = await afterFirst('malformed');
    expect(malformed.lastError).toBe('Microsoft Graph answered with something that is not JSON. The sync tries again in 5 minutes.');

    // Recovered: everything is there, each once.
    expect(await syncNow(token)).toMatchObject({ lastError: null, importedCount: 7 });
    expect((await teamsMeetings(token)).map((m) => m.title)).toEqual([
      'Planning 1',
      'Planning 10',
      'Planning 2',
      'Planning 3',
      'Planning 7',
      'Planning 8',
      'Planning 9',
    ]);
  });

  it('a transcript Microsoft refuses is told by name; the others are imported', async () => {
    const { token } = await signUpUser(t.app, 'ms-one-refused');
    ms.fail(new RegExp(`onlineMeetings/${ms.meetings[2]!.onlineMeetingId}/transcripts$`), {
      status: 403,
      code: 'Forbidden',
      message: 'Only the organizer can read transcripts.',
    });
    const state = await connect(token);
    expect(state).toMatchObject({ importedCount: 2 });
    expect(state.lastError).toBe(
      'One meeting was not imported. “Planning 3”: its transcripts could not be listed: Microsoft refused access (HTTP 403 Forbidden: Only the organizer can read transcripts.).',
    );
  });
});

describe('without a Microsoft app', () => {
  it('says how to set one up and refuses to start', async () => {
    const bare = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' } });
    try {
      const { token } = await signUpUser(bare.app, 'ms-bare');
      const response = await bare.app.inject({ method: 'GET', url: '/api/v1/integrations/teams/account', headers: { authorization: `Bearer ${token}` } });
      expect(TeamsSyncStateSchema.parse(response.json())).toMatchObject({
        available: false,
        connected: false,
        redirectUri: `${bare.baseUrl}/settings/connections/microsoft`,
      });
      const start = await bare.app.inject({ method: 'POST', url: '/api/v1/integrations/teams/account/start', headers: { authorization: `Bearer ${token}` } });
      expect(start.statusCode).toBe(409);
      expect(start.json().error.message).toMatch(/MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET/);
    } finally {
      await bare.close();
    }
  });
});
