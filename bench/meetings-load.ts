import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import SqliteDatabase from 'better-sqlite3';
import { Migrator } from 'kysely';
import pg from 'pg';
import * as tus from 'tus-js-client';
import { signIn, signUpAndIn } from './auth-load.ts';
import { describeLoad, median, type Row } from './lib/report.ts';
import { startServer } from './lib/server.ts';
import { createDb, type Db } from '#server/db/create-db.ts';
import { MIGRATIONS } from '#server/db/migrations.ts';

/** Meetings at scale (benchMeetings), and the upload path's throughput. */
const MEETINGS = Number(process.env.BENCH_MEETINGS ?? 10_000);
const SEGMENTS_PER_MEETING = Number(process.env.BENCH_SEGMENTS_PER_MEETING ?? 100);

const WORDS = (
  'budget roadmap customer onboarding release launch pricing design review hiring quarter revenue churn migration api gateway ' +
  'security incident postmortem sprint retro planning marketing campaign partner contract legal compliance mobile dashboard analytics ' +
  'feedback interview research prototype deadline vendor invoice support escalation performance latency database backup training'
).split(' ');
const NAMES = [
  'Alex Johnson',
  'Sarah Miller',
  'David Chen',
  'Emma Wilson',
  'Michael Brown',
  'Lisa Park',
  'James Taylor',
  'Sophia Lee',
  'Daniel Kim',
  'Olivia Martinez',
];

function sentence(random: () => number, length: number): string {
  return Array.from({ length }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
}

/** The day of the seeded meeting `m` (one every 3 hours from 2023-01-01). */
const dayOf = (m: number) => new Date(Date.UTC(2023, 0, 1) + m * 3 * 3600_000).toISOString().slice(0, 10);

/** A seeded generator, so every run searches the same data. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type SeedMeeting = {
  id: string;
  title: string;
  when: string;
  duration: number;
  summary: string;
  people: string[];
  speakerIds: string[];
  segments: { id: string; speakerId: string; startMs: number; endMs: number; text: string }[];
};

/**
 * The seeded history, the same on both databases: every meeting holds every word of WORDS (the worst
 * case: a word all 10,000 meetings contain), and one in a thousand says "zeppelin" once (a rare word).
 * Each meeting's notes were written long ago (a ready notes state, as years of use leave it): without
 * one, the start would queue 10,000 note-writing jobs, each reindexing its meeting, and the figures
 * would be of searches competing with them rather than of search.
 */
function* seedMeetings(): Generator<SeedMeeting> {
  const random = mulberry32(42);
  for (let m = 0; m < MEETINGS; m++) {
    const id = crypto.randomUUID();
    const when = new Date(Date.UTC(2023, 0, 1) + m * 3 * 3600_000).toISOString(); // dayOf's calendar
    const title = `${sentence(random, 2)} meeting ${m}`;
    const summary = sentence(random, 20);
    const duration = 1800 + Math.floor(random() * 3600);
    const people = [0, 1, 2].map(() => NAMES[Math.floor(random() * NAMES.length)]!);
    const speakerIds = [0, 1, 2].map(() => crypto.randomUUID());
    const segments = Array.from({ length: SEGMENTS_PER_MEETING }, (_, s) => ({
      id: crypto.randomUUID(),
      speakerId: speakerIds[s % 3]!,
      startMs: s * 6000,
      endMs: s * 6000 + 5500,
      text: sentence(random, 12) + (m % 1000 === 7 && s === 50 ? ' zeppelin' : ''),
    }));
    yield { id, title, when, duration, summary, people, speakerIds, segments };
  }
}

/** Straight into the SQLite file with prepared statements (as many years of use would leave it). */
function seedSqlite(dbFile: string, ownerId: string): void {
  const db = new SqliteDatabase(dbFile);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const insertMeeting = db.prepare(
    `insert into meetings (id, owner_id, title, started_at, duration_seconds, status, failure_reason, source, options, summary, is_sample, audio_key, audio_mime, audio_bytes, upload_id, created_at, updated_at)
     values (?, ?, ?, ?, ?, 'ready', null, 'upload', '{}', ?, 0, null, null, null, null, ?, ?)`,
  );
  const insertParticipant = db.prepare('insert into meeting_participants (meeting_id, position, name, name_lower) values (?, ?, ?, ?)');
  const insertSpeaker = db.prepare('insert into meeting_speakers (id, meeting_id, label, display_name, position) values (?, ?, ?, ?, ?)');
  const insertSegment = db.prepare(
    'insert into transcript_segments (id, meeting_id, speaker_id, start_ms, end_ms, text, confidence) values (?, ?, ?, ?, ?, ?, 0.9)',
  );
  const insertNotes = db.prepare(
    `insert into meeting_notes (meeting_id, status, engine, dropped_uncited, local_fallback_parts, source_revision, generated_at, updated_at) values (?, 'ready', 'local', 0, 0, 0, ?, ?)`,
  );
  db.transaction(() => {
    for (const m of seedMeetings()) {
      insertMeeting.run(m.id, ownerId, m.title, m.when, m.duration, m.summary, m.when, m.when);
      insertNotes.run(m.id, m.when, m.when);
      [...new Set(m.people)].forEach((name, i) => insertParticipant.run(m.id, i, name, name.toLowerCase()));
      m.speakerIds.forEach((speakerId, i) => insertSpeaker.run(speakerId, m.id, `Speaker ${i + 1}`, m.people[i], i));
      for (const s of m.segments) insertSegment.run(s.id, m.id, s.speakerId, s.startMs, s.endMs, s.text);
    }
  })();
  db.close();
}

/** Into PostgreSQL with multi-row inserts, a thousand meetings to a transaction. */
async function seedPostgres(db: Db, ownerId: string): Promise<void> {
  let batch: SeedMeeting[] = [];
  const flush = async () => {
    const meetings = batch;
    batch = [];
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('meetings')
        .values(
          meetings.map((m) => ({
            id: m.id,
            owner_id: ownerId,
            title: m.title,
            started_at: m.when,
            duration_seconds: m.duration,
            status: 'ready' as const,
            failure_reason: null,
            source: 'upload' as const,
            options: '{}',
            summary: m.summary,
            is_sample: 0,
            audio_key: null,
            audio_mime: null,
            audio_bytes: null,
            upload_id: null,
            created_at: m.when,
            updated_at: m.when,
            transcript_revision: 0,
          })),
        )
        .execute();
      await trx
        .insertInto('meeting_notes')
        .values(
          meetings.map((m) => ({
            meeting_id: m.id,
            status: 'ready',
            engine: 'local',
            dropped_uncited: 0,
            local_fallback_parts: 0,
            source_revision: 0,
            generated_at: m.when,
            updated_at: m.when,
          })),
        )
        .execute();
      await trx
        .insertInto('meeting_participants')
        .values(
          meetings.flatMap((m) =>
            [...new Set(m.people)].map((name, i) => ({ meeting_id: m.id, position: i, name, name_lower: name.toLowerCase(), source: 'manual' as const })),
          ),
        )
        .execute();
      await trx
        .insertInto('meeting_speakers')
        .values(
          meetings.flatMap((m) =>
            m.speakerIds.map((id, i) => ({ id, meeting_id: m.id, label: `Speaker ${i + 1}`, display_name: m.people[i] ?? null, position: i })),
          ),
        )
        .execute();
      const segments = meetings.flatMap((m) =>
        m.segments.map((s) => ({
          id: s.id,
          meeting_id: m.id,
          speaker_id: s.speakerId,
          start_ms: s.startMs,
          end_ms: s.endMs,
          text: s.text,
          confidence: 0.9,
          sentiment: null,
        })),
      );
      for (let i = 0; i < segments.length; i += 5000)
        await trx
          .insertInto('transcript_segments')
          .values(segments.slice(i, i + 5000))
          .execute();
    });
  };
  for (const m of seedMeetings()) {
    batch.push(m);
    if (batch.length === 1000) await flush();
  }
  if (batch.length > 0) await flush();
}

/** Median and worst of 20 deletes through the API, one after another. */
async function deleteTimes(base: string, token: string): Promise<string> {
  const page = (await (await fetch(`${base}?page=2&pageSize=20`, { headers: { authorization: `Bearer ${token}` } })).json()) as { items: { id: string }[] };
  const times: number[] = [];
  for (const { id } of page.items) {
    const started = performance.now();
    const response = await fetch(`${base}/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error(`delete failed: ${response.status}`);
    times.push(performance.now() - started);
  }
  return `median ${median(times).toFixed(1)} ms, worst ${Math.max(...times).toFixed(1)} ms over ${times.length}`;
}

/** Figures of search alone: the queues must be idle (a note-writing job reindexes its meeting and holds the one SQLite writer). */
async function idleQueues(baseUrl: string, token: string): Promise<string> {
  const status = (await (await fetch(`${baseUrl}/api/v1/status`, { headers: { authorization: `Bearer ${token}` } })).json()) as Record<
    'transcription' | 'notes',
    { queue: { queued: number; running: number } }
  >;
  const busy = status.notes.queue.queued + status.notes.queue.running + status.transcription.queue.queued + status.transcription.queue.running;
  if (busy > 0) throw new Error(`${busy} jobs queued or running at the start: the figures would not be of search alone`);
  return 'none (notes and transcription queues idle)';
}

async function bearerLoad(url: string, token: string, seconds: number): Promise<string> {
  const result = await autocannon({ url, headers: { authorization: `Bearer ${token}` }, connections: 10, duration: seconds });
  return describeLoad(result);
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * What one person waits: requests one after another for `seconds` (at most 2,000), each timed from
 * send to the whole answer read; p95 and p99 beside their goals. Then the same URL under 10
 * connections at once (throughput: one process answers them in turn, so there a request's time is
 * about ten answers' time).
 */
async function latencyAndLoad(url: string, token: string, seconds: number, goals: { p95: number; p99?: number }): Promise<string> {
  const headers = { authorization: `Bearer ${token}` };
  const times: number[] = [];
  const until = performance.now() + seconds * 1000;
  let resets = 0;
  while (performance.now() < until && times.length < 2000) {
    const started = performance.now();
    let response: Response;
    try {
      response = await fetch(url, { headers });
    } catch (error) {
      // A kept-alive connection the server closed as it was reused (seen under load): counted, not timed, tried again once.
      if (++resets > 5) throw error;
      continue;
    }
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const p95 = percentile(times, 95);
  const p99 = percentile(times, 99);
  const verdict = (value: number, goal: number) => `${value.toFixed(1)} ms (goal ≤ ${goal}${value <= goal ? ', met' : ', NOT met'})`;
  return (
    `one at a time: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${verdict(p95, goals.p95)}, ` +
    `p99 ${goals.p99 === undefined ? `${p99.toFixed(1)} ms` : verdict(p99, goals.p99)}, ${times.length} requests${resets > 0 ? ` (${resets} connection resets, retried)` : ''}; ` +
    `10 connections: ${await bearerLoad(url, token, seconds)}`
  );
}

/** What a search answers, checked before it is timed: a figure for an empty or broken answer would be no figure. */
async function describeSearch(url: string, token: string): Promise<string> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  const page = (await response.json()) as { total: number; totalIsAtLeast?: boolean; items: { matches?: unknown[] }[] };
  const withSnippets = page.items.filter((m) => (m.matches?.length ?? 0) > 0).length;
  if (page.items.length === 0 || withSnippets < page.items.length) throw new Error(`${url}: ${page.items.length} meetings, ${withSnippets} with snippets`);
  return `${page.total}${page.totalIsAtLeast ? '+' : ''} meetings, each with snippets`;
}

type BenchDatabase = { kind: 'sqlite' } | { kind: 'postgres'; url: string };

/** The migration that builds today's search index; the seed is written as the database was before it, which then backfills the index. */
const SEARCH_MIGRATION = '2026-11-25-1000-search-passages';

async function openBenchDb(target: BenchDatabase, dataDir: string) {
  return createDb(target.kind === 'sqlite' ? { dialect: 'sqlite', file: path.join(dataDir, 'parley.db') } : { dialect: 'postgres', url: target.url });
}

/**
 * Meetings at scale: 10,000 meetings with 1,000,000 transcript segments for one person, on SQLite or
 * PostgreSQL. The data goes in as an installation from before today's search index holds it, so the
 * next start's migration indexes it all (the upgrade's time is a figure too); then the list and the
 * searches: each one's latency beside the issue's goals, and under load.
 */
export async function benchMeetings(seconds: number, target: BenchDatabase = { kind: 'sqlite' }): Promise<Row[]> {
  const env = { AUTH_RATE_LIMITS: 'false', ...(target.kind === 'postgres' ? { DATABASE_URL: target.url } : {}) };
  const first = await startServer({ env });
  const apikey = 'bench';
  const email = `bench-meetings-${Date.now()}@example.com`;
  const session = await signUpAndIn(first.baseUrl, apikey, email, 'bench-password-1');
  const me = (await (await fetch(`${first.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${session.access_token}` } })).json()) as { id: string };
  // Years of meetings are kept only by someone who chose to keep them: otherwise Settings › Privacy's
  // default (delete after 90 days) would sweep the seeded history away at the next start.
  const kept = await fetch(`${first.baseUrl}/api/v1/settings/privacy`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${session.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ autoDelete: 'never' }),
  });
  if (!kept.ok) throw new Error(`could not set auto-delete to never: ${kept.status} ${await kept.text()}`);
  await first.stop();

  const handle = await openBenchDb(target, first.dataDir);
  const seedStarted = performance.now();
  try {
    const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => MIGRATIONS }, allowUnorderedMigrations: true });
    // Later migrations are stepped back too (the next start applies them again), newest first.
    for (let undone: string | undefined; undone !== SEARCH_MIGRATION;) {
      const down = await migrator.migrateDown();
      undone = down.results?.[0]?.migrationName;
      if (down.error || undone === undefined) throw new Error(`could not step back before ${SEARCH_MIGRATION}: ${String(down.error ?? 'no migration left')}`);
    }
    if (target.kind === 'postgres') await seedPostgres(handle.db, me.id);
  } finally {
    await handle.close();
  }
  if (target.kind === 'sqlite') seedSqlite(path.join(first.dataDir, 'parley.db'), me.id);
  const seedMs = performance.now() - seedStarted;
  let server = await startServer({ dataDir: first.dataDir, env, startupTimeoutMs: 30 * 60_000 });
  try {
    const base = `${server.baseUrl}/api/v1/meetings`;
    // A fresh sign-in: the restarted server has another port, so another token issuer.
    const token = (await signIn(server.baseUrl, apikey, email, 'bench-password-1')).access_token;
    const list = { p95: 20 };
    const search = { p95: 50, p99: 100 };
    // At 10,000 meetings 2024-01-01 to 2024-06-30 (six months of three and a half years); the same share of a smaller history.
    const [from, to] = [dayOf(Math.round(MEETINGS * 0.292)), dayOf(Math.round(MEETINGS * 0.4368))];
    const searches: [string, string][] = [
      ['search, one word every meeting holds ("escalation")', `${base}?q=escalation`],
      ['search, two words, last as prefix ("vendor invo")', `${base}?q=${encodeURIComponent('vendor invo')}`],
      [`search + date range ("budget", ${from} to ${to})`, `${base}?q=budget&from=${from}&to=${to}`],
      ['search, a word ten meetings hold ("zeppelin")', `${base}?q=zeppelin`],
      ['search, one word, best match first (option)', `${base}?q=escalation&sort=relevance`],
    ];
    const rows: Row[] = [
      { name: 'background jobs when measured', value: await idleQueues(server.baseUrl, token) },
      {
        name: `seed ${MEETINGS.toLocaleString('en')} meetings, ${(MEETINGS * SEGMENTS_PER_MEETING).toLocaleString('en')} segments`,
        value: `${(seedMs / 1000).toFixed(1)} s`,
      },
      { name: 'upgrade: start with the search migration indexing them all', value: `${(server.startupMs / 1000).toFixed(1)} s` },
      { name: 'list, first page (12)', value: await latencyAndLoad(`${base}?page=1&pageSize=12`, token, seconds, list) },
      { name: 'list, page 500 (deep offset)', value: await latencyAndLoad(`${base}?page=500&pageSize=12`, token, seconds, list) },
      { name: 'list, participant filter', value: await latencyAndLoad(`${base}?participant=${encodeURIComponent('sarah miller')}`, token, seconds, list) },
    ];
    for (const [name, url] of searches) {
      const answer = await describeSearch(url, token);
      rows.push({ name, value: await latencyAndLoad(url, token, seconds, search), note: answer });
      console.log(`  … ${name}: ${rows.at(-1)!.value}`); // as measured: a run cut short keeps what it had
    }
    const page = (await (await fetch(`${base}?page=3&pageSize=1`, { headers: { authorization: `Bearer ${token}` } })).json()) as { items: { id: string }[] };
    rows.push({
      name: 'search inside one meeting ("budget")',
      value: await latencyAndLoad(`${base}/${page.items[0]!.id}/search?q=budget`, token, seconds, search),
    });
    rows.push({ name: 'delete a meeting (100 segments, cascades)', value: await deleteTimes(base, token) });
    if (target.kind === 'sqlite') {
      // The searches at 10 connections with SQLite's reads on the server's own thread (SQLITE_READ_THREADS=0)
      // and on read threads (the default), one after the other on the same data and machine.
      const paths = searches.map(([name, url]) => [name, url.slice(server.baseUrl.length)] as const);
      const figures = new Map<string, string[]>();
      for (const threads of ['0', undefined]) {
        await server.stop();
        server = await startServer({
          dataDir: first.dataDir,
          env: threads === undefined ? env : { ...env, SQLITE_READ_THREADS: threads },
          startupTimeoutMs: 30 * 60_000,
        });
        const again = (await signIn(server.baseUrl, apikey, email, 'bench-password-1')).access_token;
        for (const [name, url] of paths) figures.set(name, [...(figures.get(name) ?? []), await bearerLoad(`${server.baseUrl}${url}`, again, seconds)]);
      }
      for (const [name, [onThread, onPool]] of figures)
        rows.push({ name: `${name}, 10 connections`, value: `on the server's thread: ${onThread}; on read threads: ${onPool}` });
    }
    return rows;
  } finally {
    await server.stop();
    fs.rmSync(first.dataDir, { recursive: true, force: true });
  }
}

/**
 * The same on PostgreSQL: a database of its own on the server BENCH_POSTGRES_URL names (an account
 * that may create databases), dropped afterwards. Skipped with a note when none answers.
 */
export async function benchMeetingsPostgres(seconds: number): Promise<Row[]> {
  const adminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch (error) {
    return [{ name: 'PostgreSQL', value: `skipped: ${adminUrl} does not answer (${(error as Error).message}); set BENCH_POSTGRES_URL` }];
  }
  const name = `parley_bench_${process.pid}_${Date.now()}`;
  await admin.query(`create database ${name}`);
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return await benchMeetings(seconds, { kind: 'postgres', url: url.toString() });
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

/** Uploads a real 50 MB WAV through tus in 8 MiB chunks (fsync per chunk) and reports MB/s. */
export async function benchUpload(): Promise<Row[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-upload-'));
  const file = path.join(dir, 'long.wav');
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1560', '-ar', '16000', '-ac', '1', file]);
  const data = fs.readFileSync(file);
  const server = await startServer({ env: { AUTH_RATE_LIMITS: 'false' } });
  try {
    const session = await signUpAndIn(server.baseUrl, 'bench', `bench-upload-${Date.now()}@example.com`, 'bench-password-1');
    const meeting = (await (
      await fetch(`${server.baseUrl}/api/v1/meetings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${session.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Upload bench', source: 'upload' }),
      })
    ).json()) as { id: string };
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const upload = new tus.Upload(data, {
        endpoint: `${server.baseUrl}/uploads`,
        headers: { authorization: `Bearer ${session.access_token}` },
        metadata: { meetingId: meeting.id, filetype: 'audio/wav' },
        chunkSize: 8 * 1024 * 1024,
        onSuccess: () => resolve(),
        onError: reject,
      });
      upload.start();
    });
    // The last PATCH is answered after the server has decoded the whole file and stored it.
    const total = performance.now() - started;
    const mb = data.length / 1024 / 1024;
    return [
      {
        name: `upload ${mb.toFixed(0)} MB WAV (26 min), 8 MiB chunks, loopback`,
        value: `${(mb / (total / 1000)).toFixed(0)} MB/s end to end (${(total / 1000).toFixed(2)} s incl. fsync per chunk, decode check and store)`,
      },
    ];
  } finally {
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
