import crypto from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { Db } from '#server/db/create-db.ts';
import type { SecretBox } from '#server/lib/secret-box.ts';
import { nowIso } from './clock.ts';
import {
  deleteSigningKeysRetiredBefore,
  insertSigningKey,
  listSigningKeys,
  retireCurrentSigningKey,
  setSigningKeyPrivateJwk,
} from './signing-keys.repository.ts';

/**
 * ES256 signing keys (P-256, what Supabase's asymmetric keys use and supabase-js verifies with
 * WebCrypto). Keys live in the database so every server process signs with the same one; rotating
 * makes a new current key and keeps the old one published until the tokens it signed have expired.
 * Private keys are stored sealed with the installation's secret key (lib/secret-box.ts).
 */
export const JWT_ALG = 'ES256';

type SigningKey = { kid: string; privateKey: CryptoKey; publicKey: CryptoKey; publicJwk: JWK };
type KeyRing = { current: SigningKey; published: JWK[]; byKid: Map<string, SigningKey>; loadedAt: number };

const RELOAD_AFTER_MS = 60_000;

export type SigningKeys = {
  current: () => Promise<SigningKey>;
  /** A key by `kid`, reloading once from the database if another process rotated keys. */
  find: (kid: string) => Promise<SigningKey | undefined>;
  jwks: () => Promise<{ keys: JWK[] }>;
  rotate: () => Promise<string>;
};

/** Where a private key is stored, bound into its ciphertext (the migration that sealed older rows uses the same). */
const privateJwkContext = (kid: string) => `auth_signing_keys.private_jwk:${kid}`;

async function createKey(db: Db, secrets: SecretBox, status: 'current' | 'previous'): Promise<string> {
  const { privateKey, publicKey } = await generateKeyPair(JWT_ALG, { extractable: true });
  const kid = crypto.randomUUID();
  const privateJwk = await exportJWK(privateKey);
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: JWT_ALG, use: 'sig', key_ops: ['verify'], ext: true };
  await insertSigningKey(db, {
    id: kid,
    algorithm: JWT_ALG,
    private_jwk: secrets.seal(JSON.stringify(privateJwk), privateJwkContext(kid)),
    public_jwk: JSON.stringify(publicJwk),
    status,
    created_at: nowIso(),
    retired_at: null,
  });
  return kid;
}

/** Makes a new current key; the old current key becomes previous and stays published for `keepSeconds`. */
export async function rotateSigningKeys(db: Db, secrets: SecretBox, keepSeconds: number): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const retiredAt = nowIso();
    await retireCurrentSigningKey(trx, retiredAt);
    const cutoff = new Date(Date.now() - keepSeconds * 1000).toISOString();
    await deleteSigningKeysRetiredBefore(trx, cutoff);
    return createKey(trx, secrets, 'current');
  });
}

async function loadRing(db: Db, secrets: SecretBox): Promise<KeyRing> {
  let rows = await listSigningKeys(db);
  if (!rows.some((r) => r.status === 'current')) {
    // First start: create the installation's key. A unique kid per process race is harmless: the
    // newest current key wins, the others stay published as verification keys.
    await createKey(db, secrets, 'current');
    rows = await listSigningKeys(db);
  }
  const byKid = new Map<string, SigningKey>();
  for (const row of rows) {
    const publicJwk = JSON.parse(row.public_jwk) as JWK;
    const { plaintext, sealed } = secrets.open(row.private_jwk, privateJwkContext(row.id));
    // A key stored before encryption at rest (written by an older process since the migration) is sealed now.
    if (!sealed) await setSigningKeyPrivateJwk(db, row.id, secrets.seal(plaintext, privateJwkContext(row.id)));
    const privateKey = (await importJWK(JSON.parse(plaintext) as JWK, JWT_ALG)) as CryptoKey;
    const publicKey = (await importJWK(publicJwk, JWT_ALG)) as CryptoKey;
    byKid.set(row.id, { kid: row.id, privateKey, publicKey, publicJwk });
  }
  const currentRow = rows.find((r) => r.status === 'current');
  const current = currentRow && byKid.get(currentRow.id);
  if (!current) throw new Error('no current signing key');
  return { current, published: [...byKid.values()].map((k) => k.publicJwk), byKid, loadedAt: Date.now() };
}

export function createSigningKeys(db: Db, options: { keepSeconds: number; secrets: SecretBox }): SigningKeys {
  const { secrets } = options;
  let ring: Promise<KeyRing> | undefined;
  const get = async (): Promise<KeyRing> => {
    ring ??= loadRing(db, secrets);
    const loaded = await ring.catch((error: unknown) => {
      ring = undefined;
      throw error;
    });
    if (Date.now() - loaded.loadedAt > RELOAD_AFTER_MS) {
      ring = loadRing(db, secrets);
      return ring;
    }
    return loaded;
  };
  return {
    current: async () => (await get()).current,
    find: async (kid) => {
      const loaded = await get();
      const found = loaded.byKid.get(kid);
      // Reload at most every few seconds, so tokens with made-up kids cannot hammer the database.
      if (found || Date.now() - loaded.loadedAt < 5_000) return found;
      ring = loadRing(db, secrets);
      return (await ring).byKid.get(kid);
    },
    jwks: async () => ({ keys: (await get()).published }),
    rotate: async () => {
      const kid = await rotateSigningKeys(db, secrets, options.keepSeconds);
      ring = loadRing(db, secrets);
      await ring;
      return kid;
    },
  };
}
