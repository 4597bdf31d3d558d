import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '#server/db/create-db.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { createSecretBox } from '#server/lib/secret-box.ts';
import { createTestDatabase } from '#tests/support/test-database.ts';
import { SignJWT } from 'jose';
import { signAccessToken, verifyAccessToken } from './access-token.ts';
import { createSigningKeys, JWT_ALG } from './signing-keys.ts';

const ISSUER = 'http://localhost:3000/auth/v1';
const claims = {
  sub: '6f1c2a9e-4a53-4a8e-9a43-1f7c0a3e2b11',
  email: 'ada@example.com',
  phone: '',
  app_metadata: {},
  user_metadata: {},
  aal: 'aal1' as const,
  amr: [{ method: 'password', timestamp: 1 }],
  session_id: '0d5e1b3c-7f1a-4c55-9b0e-3a1f2c4d5e6f',
};

const secrets = createSecretBox(crypto.randomBytes(32));

let database: DbHandle;
beforeAll(async () => {
  database = await createTestDatabase();
  await migrateToLatest(database.db);
});
afterAll(() => database.close());

describe('signing keys', () => {
  it('creates one key on first use and keeps it across instances', async () => {
    const first = await createSigningKeys(database.db, { keepSeconds: 3600, secrets }).current();
    const second = await createSigningKeys(database.db, { keepSeconds: 3600, secrets }).current();
    expect(second.kid).toBe(first.kid);
  });

  it('rotation makes a new current key and keeps the previous one published and verifying', async () => {
    const keys = createSigningKeys(database.db, { keepSeconds: 3600, secrets });
    const old = await keys.current();
    const { token } = await signAccessToken(keys, claims, { issuer: ISSUER, expiresInSeconds: 3600 });
    const newKid = await keys.rotate();
    expect(newKid).not.toBe(old.kid);
    expect((await keys.current()).kid).toBe(newKid);
    const kids = (await keys.jwks()).keys.map((k) => k.kid);
    expect(kids).toContain(old.kid);
    expect(kids).toContain(newKid);
    expect((await verifyAccessToken(keys, token, ISSUER)).sub).toBe(claims.sub);
    // Another process that cached the old ring still verifies tokens signed with the new key.
    const otherProcess = createSigningKeys(database.db, { keepSeconds: 3600, secrets });
    const { token: fresh } = await signAccessToken(keys, claims, { issuer: ISSUER, expiresInSeconds: 3600 });
    expect((await verifyAccessToken(otherProcess, fresh, ISSUER)).session_id).toBe(claims.session_id);
  });

  it('a retired key is dropped once its tokens can no longer be valid', async () => {
    const keys = createSigningKeys(database.db, { keepSeconds: 0, secrets });
    const old = await keys.current();
    const { token } = await signAccessToken(keys, claims, { issuer: ISSUER, expiresInSeconds: 3600 });
    // Verified once (and so remembered as verified) before its key goes.
    expect((await verifyAccessToken(keys, token, ISSUER)).sub).toBe(claims.sub);
    await keys.rotate();
    await new Promise((r) => setTimeout(r, 10));
    await keys.rotate();
    expect((await keys.jwks()).keys.map((k) => k.kid)).not.toContain(old.kid);
    await expect(verifyAccessToken(keys, token, ISSUER)).rejects.toMatchObject({ code: 'bad_jwt' });
  });

  it('a token verified before stops being accepted the second it expires', async () => {
    const keys = createSigningKeys(database.db, { keepSeconds: 3600, secrets });
    const { token, expiresAt } = await signAccessToken(keys, claims, { issuer: ISSUER, expiresInSeconds: 2 });
    expect((await verifyAccessToken(keys, token, ISSUER)).sub).toBe(claims.sub);
    await new Promise((r) => setTimeout(r, (expiresAt + 0.05) * 1000 - Date.now()));
    await expect(verifyAccessToken(keys, token, ISSUER)).rejects.toMatchObject({ code: 'bad_jwt', message: expect.stringContaining('token is expired') });
  });

  it.each(['exp', 'iat'])('a token the server signed without %s is refused', async (claim) => {
    const keys = createSigningKeys(database.db, { keepSeconds: 3600, secrets });
    const key = await keys.current();
    const now = Math.floor(Date.now() / 1000);
    const full: Record<string, unknown> = { iss: ISSUER, ...claims, aud: 'authenticated', role: 'authenticated', exp: now + 3600, iat: now };
    delete full[claim];
    const token = await new SignJWT(full).setProtectedHeader({ alg: JWT_ALG, kid: key.kid, typ: 'JWT' }).sign(key.privateKey);
    const refused = { code: 'bad_jwt', message: expect.stringContaining(`missing required "${claim}" claim`) };
    await expect(verifyAccessToken(keys, token, ISSUER)).rejects.toMatchObject(refused);
    // Refused again, not remembered as verified.
    await expect(verifyAccessToken(keys, token, ISSUER)).rejects.toMatchObject(refused);
  });
});
