import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '#tests/support/build-test-app.ts';
import { fetchAnonKey, freshEmail, testClient } from '#tests/support/supabase-client.ts';

// The refresh-token reuse interval (GoTrue's REFRESH_TOKEN_REUSE_INTERVAL, 10 s here) runs from the
// presented token's own revocation, read on the server's clock, which this test moves by hand.

let t: TestApp;
let anonKey: string;
let now = new Date('2026-11-24T09:00:00Z');
const advance = (seconds: number) => {
  now = new Date(now.getTime() + seconds * 1000);
};

beforeAll(async () => {
  t = await buildTestApp({
    listen: true,
    env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', AUTH_REFRESH_TOKEN_REUSE_INTERVAL: '10' },
    deps: { clock: { now: () => now } },
  });
  anonKey = await fetchAnonKey(t.baseUrl);
});
afterAll(() => t.close());

/** A signed-in supabase-js client and its first refresh token, already rotated once (rt1 → rt2). */
async function rotatedOnce() {
  const { sb } = testClient(t.baseUrl, anonKey);
  const { data, error } = await sb.auth.signUp({ email: freshEmail('reuse'), password: 'secret12' });
  if (error || !data.session) throw error ?? new Error('no session');
  const rt1 = data.session.refresh_token;
  const rt2 = (await sb.auth.refreshSession()).data.session!.refresh_token;
  return { sb, rt1, rt2 };
}

const replay = (refreshToken: string) => testClient(t.baseUrl, anonKey).sb.auth.refreshSession({ refresh_token: refreshToken });

describe('refresh-token reuse interval', () => {
  it('a token revoked 15 s ago is refused even though the session was refreshed a moment ago, and the session ends', async () => {
    const { sb, rt1 } = await rotatedOnce();
    advance(15);
    const rt3 = (await sb.auth.refreshSession()).data.session!.refresh_token;

    const reused = await replay(rt1);
    expect(reused.error?.status).toBe(400);
    expect(reused.error?.code).toBe('refresh_token_already_used');
    expect(reused.error?.message).toBe('Invalid Refresh Token: Already Used');
    // Reuse outside the rules ends the whole session: the active token is gone too.
    expect((await replay(rt3)).error?.code).toBe('refresh_token_not_found');
  });

  it('a token revoked 10 s ago still gets the active token, one revoked 11 s ago does not', async () => {
    const { sb, rt1 } = await rotatedOnce();
    advance(4);
    const rt3 = (await sb.auth.refreshSession()).data.session!.refresh_token;
    advance(6);
    const withinInterval = await replay(rt1);
    expect(withinInterval.error).toBeNull();
    expect(withinInterval.data.session?.refresh_token).toBe(rt3);

    advance(1);
    expect((await replay(rt1)).error?.code).toBe('refresh_token_already_used');
  });

  it('the active token’s direct parent gets the active token back however long ago it was revoked', async () => {
    const { rt1, rt2 } = await rotatedOnce();
    advance(3600);
    const late = await replay(rt1);
    expect(late.error).toBeNull();
    expect(late.data.session?.refresh_token).toBe(rt2);
  });
});
