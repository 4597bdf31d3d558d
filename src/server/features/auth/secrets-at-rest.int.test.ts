import * as OTPAuth from 'otpauth';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '#server/db/migrate.ts';
import { createSecretBox, isSealed, loadSecretKey } from '#server/lib/secret-box.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { createSigningKeys } from './signing-keys.ts';

// Secrets at rest: the JWT signing keys' private halves and TOTP secrets are stored sealed with the
// installation's key ($DATA_DIR/secret.key here), never in clear; a row stored in clear before
// (a legacy row) still works once and is sealed on that read; the migration seals existing rows.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' } });
});
afterAll(() => t.close());

const box = () => createSecretBox(loadSecretKey({ secretKey: undefined, dataDir: t.config.dataDir }));
const code = (secret: string) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate();
const signingKeys = () => t.database.db.selectFrom('auth_signing_keys').select(['id', 'private_jwk']).execute();
const factorSecret = async (id: string) =>
  (await t.database.db.selectFrom('auth_mfa_factors').select('secret').where('id', '=', id).executeTakeFirstOrThrow()).secret;

async function auth(token: string, method: string, url: string, payload?: object) {
  const response = await t.app.inject({
    method: method as 'POST',
    url: `/auth/v1${url}`,
    headers: { authorization: `Bearer ${token}` },
    payload: payload ?? {},
  });
  return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
}

/** A user with an enrolled (not yet verified) TOTP factor: its id and the secret the app showed. */
async function enrolled() {
  const { token } = await signUpUser(t.app, 'at-rest');
  const { body } = await auth(token, 'POST', '/factors', { factor_type: 'totp' });
  return { token, id: body.id as string, secret: (body.totp as { secret: string }).secret };
}

async function verify(token: string, factorId: string, secret: string) {
  const challenge = await auth(token, 'POST', `/factors/${factorId}/challenge`);
  return auth(token, 'POST', `/factors/${factorId}/verify`, { challenge_id: challenge.body.id, code: code(secret) });
}

describe('secrets at rest', () => {
  it('signing keys are stored sealed, and still sign and verify tokens', async () => {
    const { token } = await signUpUser(t.app, 'keys');
    const rows = await signingKeys();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(isSealed(row.private_jwk)).toBe(true);
      expect(row.private_jwk).not.toContain('"d"');
      expect(JSON.parse(box().open(row.private_jwk, `auth_signing_keys.private_jwk:${row.id}`).plaintext)).toMatchObject({ kty: 'EC', crv: 'P-256' });
    }
    expect((await auth(token, 'GET', '/user')).status).toBe(200);
  });

  it('a TOTP secret is stored sealed, never as the app showed it, and codes from it verify', async () => {
    const { token, id, secret } = await enrolled();
    const stored = await factorSecret(id);
    expect(isSealed(stored)).toBe(true);
    expect(stored).not.toContain(secret);
    expect((await verify(token, id, secret)).status).toBe(200);
  });

  it('a TOTP secret stored in clear (before encryption) still verifies, and is sealed on that read', async () => {
    const { token, id, secret } = await enrolled();
    await t.database.db.updateTable('auth_mfa_factors').set({ secret }).where('id', '=', id).execute();
    expect((await verify(token, id, secret)).status).toBe(200);
    const stored = await factorSecret(id);
    expect(isSealed(stored)).toBe(true);
    expect(box().open(stored, `auth_mfa_factors.secret:${id}`).plaintext).toBe(secret);
  });

  it('a signing key stored in clear still signs, and is sealed when the keys are loaded', async () => {
    const [key] = await signingKeys();
    const clearJwk = box().open(key!.private_jwk, `auth_signing_keys.private_jwk:${key!.id}`).plaintext;
    await t.database.db.updateTable('auth_signing_keys').set({ private_jwk: clearJwk }).where('id', '=', key!.id).execute();
    // Another process starting now (this one has the keys loaded already).
    const keys = createSigningKeys(t.database.db, { keepSeconds: 3600, secrets: box() });
    expect((await keys.jwks()).keys.map((k) => k.kid)).toContain(key!.id);
    const stored = (await signingKeys()).find((row) => row.id === key!.id)!.private_jwk;
    expect(box().open(stored, `auth_signing_keys.private_jwk:${key!.id}`)).toEqual({ plaintext: clearJwk, sealed: true });
  });

  it('the migration seals rows stored in clear, and refuses to run on them without the key', async () => {
    const { id, secret } = await enrolled();
    const [key] = await signingKeys();
    const clearJwk = box().open(key!.private_jwk, `auth_signing_keys.private_jwk:${key!.id}`).plaintext;
    // The database as an installation from before the migration left it.
    await t.database.db.updateTable('auth_mfa_factors').set({ secret }).where('id', '=', id).execute();
    await t.database.db.updateTable('auth_signing_keys').set({ private_jwk: clearJwk }).where('id', '=', key!.id).execute();
    const forget = () => sql`delete from kysely_migration where name = ${'2026-11-24-1100-seal-auth-secrets'}`.execute(t.database.db);
    await forget();

    await expect(migrateToLatest(t.database.db)).rejects.toMatchObject({
      message: 'Database migration 2026-11-24-1100-seal-auth-secrets failed',
      cause: { message: 'sealing the stored auth secrets needs the installation secret key' },
    });
    expect(await factorSecret(id)).toBe(secret);

    await migrateToLatest(t.database.db, { sealer: { seal: box().seal, isSealed } });
    expect(box().open(await factorSecret(id), `auth_mfa_factors.secret:${id}`)).toEqual({ plaintext: secret, sealed: true });
    const sealedKey = (await signingKeys()).find((row) => row.id === key!.id)!;
    expect(box().open(sealedKey.private_jwk, `auth_signing_keys.private_jwk:${key!.id}`)).toEqual({ plaintext: clearJwk, sealed: true });
  });
});
