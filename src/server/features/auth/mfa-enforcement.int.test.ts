import * as OTPAuth from 'otpauth';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { apiTokenEndpoints } from '#shared/contracts/api-tokens.ts';
import { askEndpoints } from '#shared/contracts/ask.ts';
import { billingEndpoints } from '#shared/contracts/billing.ts';
import { calendarEndpoints } from '#shared/contracts/calendar.ts';
import { microsoftTeamsEndpoints, slackEndpoints } from '#shared/contracts/chat-integrations.ts';
import type { Endpoint } from '#shared/contracts/endpoint.ts';
import { errorReportEndpoints } from '#shared/contracts/error-reports.ts';
import { insightsEndpoints } from '#shared/contracts/insights.ts';
import { dataExportEndpoints } from '#shared/contracts/data-export.ts';
import { meEndpoints } from '#shared/contracts/me.ts';
import { meetingEndpoints } from '#shared/contracts/meetings.ts';
import { notesEndpoints } from '#shared/contracts/notes.ts';
import { notificationEndpoints } from '#shared/contracts/notifications.ts';
import { REALTIME_CLOSE_INSUFFICIENT_AAL } from '#shared/contracts/realtime.ts';
import { settingsEndpoints } from '#shared/contracts/settings.ts';
import { shareEndpoints } from '#shared/contracts/sharing.ts';
import { statusEndpoints } from '#shared/contracts/status.ts';
import { teamEndpoints } from '#shared/contracts/teams.ts';
import { teamsSyncEndpoints } from '#shared/contracts/teams-sync.ts';
import { trackerEndpoints } from '#shared/contracts/tracker.ts';
import { vocabularyEndpoints } from '#shared/contracts/vocabulary.ts';
import { voiceProfileEndpoints } from '#shared/contracts/voice-profiles.ts';
import { webhookEndpoints } from '#shared/contracts/webhooks.ts';
import { buildTestApp, type TestApp } from '#tests/support/build-test-app.ts';
import { fetchAnonKey, freshEmail, testClient } from '#tests/support/supabase-client.ts';

// MFA is enforced outside /auth/v1: a user with a verified TOTP factor who signed in with the
// password only (aal1) reaches no /api/v1 route, no upload and no realtime subscription until the
// challenge is passed; /auth/v1 keeps open what the challenge needs. Real supabase-js, real HTTP.

const GUARDED: Endpoint[] = [
  meEndpoints,
  dataExportEndpoints,
  meetingEndpoints,
  notesEndpoints,
  trackerEndpoints,
  shareEndpoints,
  insightsEndpoints,
  settingsEndpoints,
  statusEndpoints,
  teamEndpoints,
  notificationEndpoints,
  askEndpoints,
  apiTokenEndpoints,
  billingEndpoints,
  webhookEndpoints,
  calendarEndpoints,
  slackEndpoints,
  microsoftTeamsEndpoints,
  teamsSyncEndpoints,
  errorReportEndpoints,
  vocabularyEndpoints,
  voiceProfileEndpoints,
]
  .flatMap((group) => Object.values(group) as Endpoint[])
  .filter((endpoint) => endpoint.auth !== false);

const INSUFFICIENT = {
  error: { code: 'INSUFFICIENT_AAL', message: 'Two-factor verification is required: enter the code from your authenticator app to continue' },
};

let t: TestApp;
let anonKey: string;
beforeAll(async () => {
  t = await buildTestApp({ listen: true, env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' } });
  anonKey = await fetchAnonKey(t.baseUrl);
});
afterAll(() => t.close());

const code = (secret: string) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate();

/** An account with a verified TOTP factor: the enrolling (aal2) client, and a second sign-in with the password only (aal1). */
async function userWithMfa() {
  const enrolling = testClient(t.baseUrl, anonKey);
  const email = freshEmail('mfa-guard');
  const signedUp = await enrolling.sb.auth.signUp({ email, password: 'secret12' });
  if (signedUp.error) throw signedUp.error;
  const factor = (await enrolling.sb.auth.mfa.enroll({ factorType: 'totp' })).data!;
  const verified = await enrolling.sb.auth.mfa.challengeAndVerify({ factorId: factor.id, code: code(factor.totp.secret) });
  if (verified.error) throw verified.error;
  const aal2Token = verified.data.access_token;

  const passwordOnly = testClient(t.baseUrl, anonKey);
  const signedIn = await passwordOnly.sb.auth.signInWithPassword({ email, password: 'secret12' });
  if (signedIn.error) throw signedIn.error;
  return { email, factor, enrolling: enrolling.sb, aal2Token, aal1: passwordOnly.sb, aal1Token: signedIn.data.session.access_token };
}

const samplePath = (path: string) => path.replace(/:[A-Za-z_]+/g, crypto.randomUUID());

async function call(endpoint: Endpoint, token: string) {
  const hasBody = endpoint.method !== 'GET' && endpoint.method !== 'DELETE';
  const response = await fetch(`${t.baseUrl}${samplePath(endpoint.path)}`, {
    method: endpoint.method,
    headers: { authorization: `Bearer ${token}`, ...(hasBody ? { 'content-type': 'application/json' } : {}) },
    body: hasBody ? '{}' : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: response.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as unknown) : text };
}

describe('MFA enforcement', () => {
  let user: Awaited<ReturnType<typeof userWithMfa>>;
  beforeAll(async () => {
    user = await userWithMfa();
  });

  it('the password-only sign-in says aal1 with aal2 to reach, as the web app reads it', async () => {
    expect((await user.aal1.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
  });

  it(`every guarded /api/v1 route (${GUARDED.length}) answers 403 INSUFFICIENT_AAL to the aal1 token and lets the aal2 token through`, async () => {
    // The list above is every guarded route the server has: its OpenAPI document names the same ones.
    const document = (await (await fetch(`${t.baseUrl}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, { security?: unknown[] }>> };
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => operation.security?.length !== 0)
        .map(([method]) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(GUARDED.map((e) => `${e.method} ${e.path}`).sort()).toEqual(documented.sort());
    for (const endpoint of GUARDED) {
      const refused = await call(endpoint, user.aal1Token);
      expect({ route: `${endpoint.method} ${endpoint.path}`, ...refused }).toEqual({
        route: `${endpoint.method} ${endpoint.path}`,
        status: 403,
        body: INSUFFICIENT,
      });
      const passed = await call(endpoint, user.aal2Token);
      // Past the guard: whatever the route says of a made-up id or an empty body, it is not the guard's 401 or 403.
      expect({ route: `${endpoint.method} ${endpoint.path}`, status: [401, 403].includes(passed.status) }).toEqual({
        route: `${endpoint.method} ${endpoint.path}`,
        status: false,
      });
    }
  });

  it('lists meetings for the aal2 token, and for a user without MFA at aal1', async () => {
    expect((await call(meetingEndpoints.list, user.aal2Token)).status).toBe(200);
    const plain = testClient(t.baseUrl, anonKey);
    const { data } = await plain.sb.auth.signUp({ email: freshEmail('no-mfa'), password: 'secret12' });
    expect(data.session?.access_token).toBeTruthy();
    expect((await call(meetingEndpoints.list, data.session!.access_token)).status).toBe(200);
  });

  it('refuses a tus upload from the aal1 token with 403', async () => {
    const outcome = await new Promise<{ status: number | undefined; body: string }>((resolve) => {
      const upload = new tus.Upload(Buffer.from('RIFF'), {
        endpoint: `${t.baseUrl}/uploads`,
        headers: { authorization: `Bearer ${user.aal1Token}` },
        metadata: { meetingId: crypto.randomUUID(), filetype: 'audio/wav' },
        retryDelays: [],
        onSuccess: () => resolve({ status: 201, body: '' }),
        onError: (error) => {
          const response = (error as tus.DetailedError).originalResponse;
          resolve({ status: response?.getStatus(), body: response?.getBody() ?? error.message });
        },
      });
      upload.start();
    });
    expect(outcome.status).toBe(403);
    expect(JSON.parse(outcome.body)).toEqual({ error: { message: INSUFFICIENT.error.message } });
  });

  it('closes the realtime socket of the aal1 token with 4403 and subscribes the aal2 token', async () => {
    const subscribe = async (token: string) => {
      const socket = new WebSocket(`${t.baseUrl.replace('http', 'ws')}/realtime`);
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      const outcome = new Promise<string>((resolve) => {
        socket.once('message', (data) => resolve(`message ${String(data)}`));
        socket.once('close', (closeCode, reason) => resolve(`closed ${closeCode} ${String(reason)}`));
      });
      socket.send(JSON.stringify({ type: 'auth', accessToken: token }));
      const result = await outcome;
      socket.close();
      return result;
    };
    expect(await subscribe(user.aal1Token)).toBe(`closed ${REALTIME_CLOSE_INSUFFICIENT_AAL} Two-factor verification required`);
    expect(await subscribe(user.aal2Token)).toMatch(/^message \{"type":"ready"/);
  });

  it('the aal1 session still reaches the user, the factors and the challenge, and once verified everything', async () => {
    const { aal1, factor } = await userWithMfa();
    expect((await aal1.auth.getUser()).error).toBeNull();
    expect((await aal1.auth.mfa.listFactors()).data?.totp.map((f) => f.id)).toEqual([factor.id]);
    const verified = await aal1.auth.mfa.challengeAndVerify({ factorId: factor.id, code: code(factor.totp.secret) });
    expect(verified.error).toBeNull();
    expect((await call(meetingEndpoints.list, verified.data!.access_token)).status).toBe(200);
    expect((await aal1.auth.signOut()).error).toBeNull();
  });

  it('an aal2 token whose session fell back to aal1 (its factor removed, another still verified) is refused', async () => {
    const { enrolling, aal1, factor: first } = await userWithMfa();
    const stepped = await aal1.auth.mfa.challengeAndVerify({ factorId: first.id, code: code(first.totp.secret) });
    const steppedToken = stepped.data!.access_token;
    expect((await call(meetingEndpoints.list, steppedToken)).status).toBe(200);
    // The first session moves to a second factor and removes the first: the other session falls back to aal1, its token still says aal2.
    const second = (await enrolling.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Second' })).data!;
    expect((await enrolling.auth.mfa.challengeAndVerify({ factorId: second.id, code: code(second.totp.secret) })).error).toBeNull();
    expect((await enrolling.auth.mfa.unenroll({ factorId: first.id })).error).toBeNull();
    expect(await call(meetingEndpoints.list, steppedToken)).toEqual({ status: 403, body: INSUFFICIENT });
  });

  it('an email change needs aal2; a second factor passed minutes ago stands in for the current password', async () => {
    const { enrolling, aal1 } = await userWithMfa();
    const next = freshEmail('mfa-moved');
    expect((await aal1.auth.updateUser({ email: next, current_password: 'secret12' })).error?.code).toBe('insufficient_aal');
    const { data, error } = await enrolling.auth.updateUser({ email: next });
    expect(error).toBeNull();
    expect(data.user?.new_email).toBe(next);
  });
});
