import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import SqliteDatabase from 'better-sqlite3';
import * as tus from 'tus-js-client';
import { signIn, signUpAndIn } from './auth-load.ts';
import { describeLoad, median, type Row } from './lib/report.ts';
import { startServer } from './lib/server.ts';

/**
 * Meetings at scale: 10,000 meetings with 1,000,000 transcript segments for one person, seeded
 * straight into the SQLite file (as many years of use would leave it), then the list and search
 * endpoints under load; and the upload path's throughput.
 */
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

function seed(dbFile: string, ownerId: string): number {
  const db = new SqliteDatabase(dbFile);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const random = mulberry32(42);
  const insertMeeting = db.prepare(
    `insert into meetings (id, owner_id, title, started_at, duration_seconds, status, failure_reason, source, options, summary, is_sample, audio_key, audio_mime, audio_bytes, upload_id, created_at, updated_at)
     values (?, ?, ?, ?, ?, 'ready', null, 'upload', '{}', ?, 0, null, null, null, null, ?, ?)`,
  );
  const insertParticipant = db.prepare('insert into meeting_participants (meeting_id, position, name, name_lower) values (?, ?, ?, ?)');
  const insertSpeaker = db.prepare('insert into meeting_speakers (id, meeting_id, label, display_name, position) values (?, ?, ?, ?, ?)');
  const insertSegment = db.prepare(
    'insert into transcript_segments (id, meeting_id, speaker_id, start_ms, end_ms, text, confidence) values (?, ?, ?, ?, ?, ?, 0.9)',
  );
  const insertSearchRow = db.prepare('insert into meeting_search_rows (meeting_id) values (?)');
  const insertSearch = db.prepare('insert into meeting_search (rowid, title, summary, transcript) values (?, ?, ?, ?)');
  const started = performance.now();
  const run = db.transaction(() => {
    for (let m = 0; m < MEETINGS; m++) {
      const id = crypto.randomUUID();
      const when = new Date(Date.UTC(2023, 0, 1) + m * 3 * 3600_000).toISOString();
      const title = `${sentence(random, 2)} meeting ${m}`;
      const summary = sentence(random, 20);
      insertMeeting.run(id, ownerId, title, when, 1800 + Math.floor(random() * 3600), summary, when, when);
      const people = [0, 1, 2].map(() => NAMES[Math.floor(random() * NAMES.length)]!);
      [...new Set(people)].forEach((name, i) => insertParticipant.run(id, i, name, name.toLowerCase()));
      const speakerIds = [0, 1, 2].map((i) => {
        const speakerId = crypto.randomUUID();
        insertSpeaker.run(speakerId, id, `Speaker ${i + 1}`, people[i], i);
        return speakerId;
      });
      const texts: string[] = [];
      for (let s = 0; s < SEGMENTS_PER_MEETING; s++) {
        const text = sentence(random, 12);
        texts.push(text);
        insertSegment.run(crypto.randomUUID(), id, speakerIds[s % 3], s * 6000, s * 6000 + 5500, text);
      }
      insertSearch.run(insertSearchRow.run(id).lastInsertRowid, title, summary, texts.join(' '));
    }
  });
  run();
  db.close();
  return performance.now() - started;
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

async function bearerLoad(url: string, token: string, seconds: number): Promise<string> {
  const result = await autocannon({ url, headers: { authorization: `Bearer ${token}` }, connections: 10, duration: seconds });
  return describeLoad(result);
}

export async function benchMeetings(seconds: number): Promise<Row[]> {
  const first = await startServer({ env: { AUTH_RATE_LIMITS: 'false' } });
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
  const seedMs = seed(path.join(first.dataDir, 'parley.db'), me.id);
  const server = await startServer({ dataDir: first.dataDir, env: { AUTH_RATE_LIMITS: 'false' } });
  try {
    const base = `${server.baseUrl}/api/v1/meetings`;
    // A fresh sign-in: the restarted server has another port, so another token issuer.
    const token = (await signIn(server.baseUrl, apikey, email, 'bench-password-1')).access_token;
    return [
      {
        name: `seed ${MEETINGS.toLocaleString('en')} meetings, ${(MEETINGS * SEGMENTS_PER_MEETING).toLocaleString('en')} segments`,
        value: `${(seedMs / 1000).toFixed(1)} s`,
      },
      { name: 'list, first page (12)', value: await bearerLoad(`${base}?page=1&pageSize=12`, token, seconds) },
      { name: 'list, page 500 (deep offset)', value: await bearerLoad(`${base}?page=500&pageSize=12`, token, seconds) },
      { name: 'list, participant filter', value: await bearerLoad(`${base}?participant=${encodeURIComponent('sarah miller')}`, token, seconds) },
      { name: 'search, one word in transcripts', value: await bearerLoad(`${base}?q=escalation`, token, seconds) },
      { name: 'search, two words, last as prefix', value: await bearerLoad(`${base}?q=${encodeURIComponent('vendor invo')}`, token, seconds) },
      { name: 'search + date range', value: await bearerLoad(`${base}?q=budget&from=2024-01-01&to=2024-06-30`, token, seconds) },
      { name: 'delete a meeting (100 segments, cascades)', value: await deleteTimes(base, token) },
    ];
  } finally {
    await server.stop();
    fs.rmSync(first.dataDir, { recursive: true, force: true });
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
