import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, type AuthServer } from '#tests/support/auth-server.ts';
import { freshEmail, outbox } from '#tests/support/supabase-client.ts';
import { MAX_METADATA_BYTES, MAX_METADATA_DEPTH } from './users.ts';

// User metadata limits on every way in (/signup, /otp, PUT /user): too deep or too large is the
// contract's 400 validation_failed, and nothing is stored. The deep bodies are written as JSON text,
// since building them as objects would overflow JSON.stringify in the test itself.

let server: AuthServer;
beforeAll(async () => {
  server = await startAuthServer({ AUTH_AUTOCONFIRM: 'true' });
});
afterAll(() => server.close());

/** `{"data": {"k": {"k": … 1 …}}}` with `levels` nested objects under data (data itself is level 1). */
const nested = (levels: number) => '{"k":'.repeat(levels) + '1' + '}'.repeat(levels);

async function post(path: string, json: string, bearer = server.anonKey, method = 'POST') {
  const response = await fetch(`${server.baseUrl}/auth/v1${path}`, {
    method,
    headers: { apikey: server.anonKey, authorization: `Bearer ${bearer}`, 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
    body: json,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const tooDeep = { code: 'validation_failed', message: `User metadata is nested too deeply (at most ${MAX_METADATA_DEPTH} levels)` };
const tooLarge = { code: 'validation_failed', message: `User metadata is too large (at most ${MAX_METADATA_BYTES / 1024} KB as JSON)` };

describe('user metadata limits', () => {
  it('/signup refuses 20 000 levels and 33 levels with a 400, creating no account; 32 levels sign up', async () => {
    for (const levels of [20_000, MAX_METADATA_DEPTH + 1]) {
      const email = freshEmail('deep');
      const refused = await post('/signup', `{"email":"${email}","password":"secret12","data":${nested(levels)}}`);
      expect(refused).toEqual({ status: 400, body: tooDeep });
      const { error } = await server.client().sb.auth.signInWithPassword({ email, password: 'secret12' });
      expect(error?.code).toBe('invalid_credentials');
    }
    const { status } = await post('/signup', `{"email":"${freshEmail('deep')}","password":"secret12","data":${nested(MAX_METADATA_DEPTH)}}`);
    expect(status).toBe(200);
  });

  it('/signup refuses metadata over the size limit through supabase-js', async () => {
    const { sb } = server.client();
    const { data, error } = await sb.auth.signUp({
      email: freshEmail('large'),
      password: 'secret12',
      options: { data: { bio: 'x'.repeat(MAX_METADATA_BYTES) } },
    });
    expect(error?.status).toBe(400);
    expect(error?.code).toBe('validation_failed');
    expect(error?.message).toBe(tooLarge.message);
    expect(data.session).toBeNull();
  });

  it('/otp refuses deep and large metadata and sends no email', async () => {
    const email = freshEmail('otp');
    expect(await post('/otp', `{"email":"${email}","data":${nested(20_000)}}`)).toEqual({ status: 400, body: tooDeep });
    expect(await post('/otp', JSON.stringify({ email, data: { bio: 'x'.repeat(MAX_METADATA_BYTES) } }))).toEqual({ status: 400, body: tooLarge });
    expect(outbox(server.dataDir, email)).toEqual([]);
  });

  it('PUT /user refuses deep metadata, and merged metadata over the limit, leaving the user as it was', async () => {
    const { sb } = server.client();
    const { data } = await sb.auth.signUp({ email: freshEmail('put'), password: 'secret12', options: { data: { full_name: 'Ada' } } });
    const token = data.session!.access_token;
    expect(await post('/user', `{"data":${nested(20_000)}}`, token, 'PUT')).toEqual({ status: 400, body: tooDeep });

    const half = 'x'.repeat(MAX_METADATA_BYTES / 2);
    expect((await sb.auth.updateUser({ data: { first: half } })).error).toBeNull();
    const second = await sb.auth.updateUser({ data: { second: half } });
    expect(second.error?.status).toBe(400);
    expect(second.error?.message).toBe(tooLarge.message);

    const { data: current } = await sb.auth.getUser();
    expect(Object.keys(current.user!.user_metadata).sort()).toEqual(['email_verified', 'first', 'full_name']);
  });
});
