/**
 * The anchor of the authenticated-JSON bench: a bare Fastify route doing the work GET /api/v1/me
 * must do, and nothing else — verify the ES256 access token with jose (the server's published
 * keys), read the session and the user by key from the server's SQLite file, answer JSON. Run as
 * its own process beside the real server (same machine, same database file, same token), so the
 * ratio of the two says what Parley's own layers cost.
 *
 * Arguments: <port> <sqlite file> <jwks url> <issuer>. Prints "listening" when ready.
 */
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';

const [port, file, jwksUrl, issuer] = process.argv.slice(2) as [string, string, string, string];
const keys = createLocalJWKSet((await (await fetch(jwksUrl)).json()) as JSONWebKeySet);
const db = new Database(file, { readonly: true, fileMustExist: true });
const sessionById = db.prepare('select * from auth_sessions where id = ?');
const userById = db.prepare('select * from auth_users where id = ?');

type Row = Record<string, unknown>;
const app = Fastify();
app.get('/me', async (request, reply) => {
  const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  if (!token) return reply.code(401).send({ error: 'no token' });
  const { payload } = await jwtVerify(token, keys, { issuer, audience: 'authenticated' });
  const session = sessionById.get(payload.session_id) as Row | undefined;
  const user = userById.get(payload.sub) as Row | undefined;
  if (!session || !user || session.user_id !== user.id) return reply.code(401).send({ error: 'no session' });
  const metadata = JSON.parse(String(user.raw_user_meta_data ?? '{}')) as Row;
  return {
    id: user.id,
    email: user.email,
    fullName: typeof metadata.full_name === 'string' ? metadata.full_name : null,
    emailConfirmed: user.email_confirmed_at !== null,
    aal: session.aal,
    createdAt: user.created_at,
  };
});
await app.listen({ port: Number(port), host: '127.0.0.1' });
console.log('listening');
