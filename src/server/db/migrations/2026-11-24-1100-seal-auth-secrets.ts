import type { Kysely, Migration } from 'kysely';

/** How a secret is sealed, handed in by whoever runs the migrations (the key is not the migration's to know). */
export type Sealer = { seal: (plaintext: string, context: string) => string; isSealed: (stored: string) => boolean };

/**
 * Seals the secrets stored in plain text before encryption at rest: the JWT signing keys' private
 * JWKs and the TOTP factors' secrets. The contexts (table.column:id) must match the ones the auth
 * feature opens them with. Without a sealer it can only run on a database with no such rows.
 */
export function sealAuthSecrets(sealer: Sealer | undefined): Migration {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const keys = (await db.selectFrom('auth_signing_keys').select(['id', 'private_jwk']).execute()) as { id: string; private_jwk: string }[];
      const factors = (await db.selectFrom('auth_mfa_factors').select(['id', 'secret']).execute()) as { id: string; secret: string }[];
      const plainKeys = keys.filter((row) => !sealer?.isSealed(row.private_jwk));
      const plainFactors = factors.filter((row) => !sealer?.isSealed(row.secret));
      if (plainKeys.length + plainFactors.length === 0) return;
      if (!sealer) throw new Error('sealing the stored auth secrets needs the installation secret key');
      for (const row of plainKeys) {
        const sealed = sealer.seal(row.private_jwk, `auth_signing_keys.private_jwk:${row.id}`);
        await db.updateTable('auth_signing_keys').set({ private_jwk: sealed }).where('id', '=', row.id).execute();
      }
      for (const row of plainFactors) {
        const sealed = sealer.seal(row.secret, `auth_mfa_factors.secret:${row.id}`);
        await db.updateTable('auth_mfa_factors').set({ secret: sealed }).where('id', '=', row.id).execute();
      }
    },
  };
}
