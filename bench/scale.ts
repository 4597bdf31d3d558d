// BENCH_ONLY=scale: `npm run cluster`'s processes (2 web + 2 worker behind HAProxy, PostgreSQL,
// Redis) under a mixed load (requests, uploads, live transcripts), with one web process, one worker
// and Redis killed or restarted midway; then the database is read for lost and duplicated work.
// Figures printed, never asserted.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import * as tus from 'tus-js-client';
import WebSocket from 'ws';
import { LIVE_PATH, LiveServerMessageSchema, type LiveAuthMessage } from '#shared/contracts/live.ts';
import { pcmOf } from './live-latency.ts';
import type { Row } from './lib/report.ts';

/** Length of each throughput phase (1 web, then 2 web), s. */
const PHASE_SECONDS = Number(process.env.BENCH_SCALE_PHASE_SECONDS ?? 15);
/** Length of the mixed load with the kills, s. */
const FAULT_SECONDS = Number(process.env.BENCH_SCALE_SECONDS ?? 75);
/** Recordings uploaded during it (real speech, transcribed by pocketsphinx, notes by the local engine). */
const UPLOADS = Number(process.env.BENCH_SCALE_UPLOADS ?? 8);
/** Live transcripts at once during it, each recording after recording (24.7 s of read speech streamed at real time). */
const LIVE_AT_ONCE = Number(process.env.BENCH_SCALE_LIVE ?? 2);
const USERS = 16;
/** Requests in flight at once (each loop one person, one address). */
const CONNECTIONS = Number(process.env.BENCH_SCALE_CONNECTIONS ?? 12);
/**
 * After the load, the queues may finish every job as long as they keep finishing some: a job left
 * unfinished this long after the last one finished counts as lost (a killed worker's job waits out
 * its lease, at most 90 s, before another worker takes it).
 */
const DRAIN_STALL_MS = 150_000;
/** An upload still going after this is stopped and counted resumable (the server knows its offset) or lost. */
const UPLOAD_DEADLINE_MS = (FAULT_SECONDS + 60) * 1000;
const CLIPS = ['/work/shared/data/audio/librispeech_mr_quilter.wav', '/work/shared/data/audio/jfk.wav'];
const APIKEY = 'bench';
const PASSWORD = 'bench-password-1';

type Proc = { name: string; role: string; port?: number; pid?: number };
type Cluster = {
  url: string;
  databaseUrl: string;
  webs: Proc[];
  workers: Proc[];
  haproxy: { adminSocket: string };
  kill: (name: string, signal?: string) => Promise<void>;
  restart: (name: string) => Promise<void>;
  restartRedis: () => Promise<void>;
  stop: () => Promise<void>;
};
// npm run cluster's module is plain JavaScript (it runs before node_modules exists).
const { startCluster } = (await import('../scripts/cluster.mjs' as string)) as {
  startCluster: (options: Record<string, unknown>) => Promise<Cluster>;
};

type Answer = { status: number; body: string };

/** A person's HTTP: keep-alive connections from an address of their own on loopback, so per-address limits see many people. */
function client(address: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4, localAddress: address } as http.AgentOptions);
  const request = (url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const req = http.request(url, { method: init.method ?? 'GET', headers: init.headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.setTimeout(60_000, () => req.destroy(new Error('timed out')));
      req.end(init.body);
    });
  return { request, close: () => agent.destroy() };
}

type Person = { email: string; token: string; address: string; http: ReturnType<typeof client>; meetingIds: string[] };

const json = (token?: string) => ({
  'content-type': 'application/json',
  apikey: APIKEY,
  'x-supabase-api-version': '2024-01-01',
  ...(token ? { authorization: `Bearer ${token}` } : {}),
});

async function signIn(base: string, person: Pick<Person, 'email' | 'http'>, password = PASSWORD): Promise<Answer> {
  return person.http.request(`${base}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: json(),
    body: JSON.stringify({ email: person.email, password }),
  });
}

async function newPerson(base: string, i: number): Promise<Person> {
  const address = `127.0.0.${20 + i}`;
  const email = `scale-${i}-${Date.now()}@example.com`;
  const person = { email, address, http: client(address), token: '', meetingIds: [] as string[] };
  const signup = await person.http.request(`${base}/auth/v1/signup`, { method: 'POST', headers: json(), body: JSON.stringify({ email, password: PASSWORD }) });
  if (signup.status !== 200) throw new Error(`sign-up: ${signup.status} ${signup.body}`);
  const session = await signIn(base, person);
  if (session.status !== 200) throw new Error(`sign-in: ${session.status} ${session.body}`);
  person.token = (JSON.parse(session.body) as { access_token: string }).access_token;
  // The sample meetings are set up by a worker moments after the sign-up: their ids are the mix's meetings.
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const stats = await person.http.request(`${base}/api/v1/meetings/stats`, { headers: json(person.token) });
    if (stats.status === 200 && !(JSON.parse(stats.body) as { samplesSettingUp: boolean }).samplesSettingUp) break;
  }
  const list = await person.http.request(`${base}/api/v1/meetings?page=1&pageSize=12`, { headers: json(person.token) });
  person.meetingIds = (JSON.parse(list.body) as { items: { id: string }[] }).items.map((m) => m.id);
  return person;
}

const SEARCHES = ['budget', 'roadmap', 'launch', 'customer', 'design review', 'pricing'];

type Tally = { ok: number; errors: { at: number; started: number; kind: string; status: number | string }[]; byKind: Record<string, number> };

/** One request of the mix: mostly reads (lists, search, a meeting, /me, teams), sometimes a PDF export or a sign-in. */
async function oneRequest(base: string, person: Person, tally: Tally, random: () => number): Promise<void> {
  const r = random();
  const headers = json(person.token);
  let kind: string;
  let send: () => Promise<Answer>;
  if (r < 0.35) [kind, send] = ['list', () => person.http.request(`${base}/api/v1/meetings?page=1&pageSize=12`, { headers })];
  else if (r < 0.6)
    [kind, send] = [
      'search',
      () => person.http.request(`${base}/api/v1/meetings?q=${encodeURIComponent(SEARCHES[Math.floor(random() * SEARCHES.length)]!)}`, { headers }),
    ];
  else if (r < 0.75 && person.meetingIds.length > 0)
    [kind, send] = [
      'meeting',
      () => person.http.request(`${base}/api/v1/meetings/${person.meetingIds[Math.floor(random() * person.meetingIds.length)]}`, { headers }),
    ];
  else if (r < 0.85) [kind, send] = ['me', () => person.http.request(`${base}/api/v1/me`, { headers })];
  else if (r < 0.92) [kind, send] = ['teams', () => person.http.request(`${base}/api/v1/teams`, { headers })];
  else if (r < 0.96 && person.meetingIds.length > 0)
    [kind, send] = [
      'pdf',
      () => person.http.request(`${base}/api/v1/meetings/${person.meetingIds[Math.floor(random() * person.meetingIds.length)]}/export?format=pdf`, { headers }),
    ];
  else [kind, send] = ['sign-in', () => signIn(base, person)];
  const started = performance.now();
  try {
    const answer = await send();
    if (answer.status >= 200 && answer.status < 400) {
      tally.ok++;
      tally.byKind[kind] = (tally.byKind[kind] ?? 0) + 1;
    } else tally.errors.push({ at: performance.now(), started, kind, status: answer.status });
  } catch (error) {
    tally.errors.push({ at: performance.now(), started, kind, status: (error as Error).message });
  }
}

/** CONNECTIONS loops of the mix until `until()` says stop. */
async function load(base: string, people: Person[], seconds: number | (() => boolean)): Promise<Tally & { seconds: number }> {
  const tally: Tally = { ok: 0, errors: [], byKind: {} };
  const started = performance.now();
  const done = typeof seconds === 'number' ? () => performance.now() - started > seconds * 1000 : seconds;
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, i) => {
      const person = people[i % people.length]!;
      while (!done()) await oneRequest(base, person, tally, random);
    }),
  );
  return { ...tally, seconds: (performance.now() - started) / 1000 };
}

/** HAProxy's runtime API: one command on its admin socket. */
function haproxyCommand(socketPath: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    let answer = '';
    socket.on('data', (data) => (answer += data.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.end(`${command}\n`);
  });
}

type Health = { role: string; eventLoopDelayMs: { p50: number; p99: number; max: number }; rssBytes: number };

async function healthOf(port: number, token: string): Promise<Health> {
  const response = await fetch(`http://127.0.0.1:${port}/api/v1/status`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`status on port ${port}: ${response.status}`);
  return ((await response.json()) as { process: Health }).process;
}

/** A realtime socket straight to one web process, signed in; resolves once the server says ready. */
async function realtimeSocket(port: number, token: string, onEvent: (event: { type: string; teamId?: string }) => void): Promise<WebSocket> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/realtime`);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => socket.send(JSON.stringify({ type: 'auth', accessToken: token })));
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { type: string; teamId?: string };
      if (message.type === 'ready') resolve();
      else onEvent(message);
    });
    socket.once('error', reject);
  });
  return socket;
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/**
 * Realtime across processes while `busy()`: a team renamed through web A every 250 ms; the
 * `team.changed` it publishes reaches the same person's sockets on web B and on web A (each process
 * hears every event back through PostgreSQL's LISTEN/NOTIFY, its own too). Web A raises the event as
 * it answers (after the commit), so the figure is from web A's answer to the event's arrival on web
 * B; beside it, from the request sent (the request's own time under load included).
 */
async function realtimeProbe(
  webA: number,
  webB: number,
  person: Person,
  busy: () => boolean,
): Promise<{ across: number[]; fromSent: number[]; local: number[]; lost: number }> {
  const created = await person.http.request(`http://127.0.0.1:${webA}/api/v1/teams`, {
    method: 'POST',
    headers: json(person.token),
    body: JSON.stringify({ name: 'Realtime probe' }),
  });
  if (created.status !== 201) throw new Error(`team: ${created.status} ${created.body}`);
  const teamId = (JSON.parse(created.body) as { id: string }).id;
  const arrivals = new Map<'a' | 'b', number[]>([
    ['a', []],
    ['b', []],
  ]);
  const onEvent = (side: 'a' | 'b') => (event: { type: string; teamId?: string }) => {
    if (event.type === 'team.changed' && event.teamId === teamId) arrivals.get(side)!.push(performance.now());
  };
  const a = await realtimeSocket(webA, person.token, onEvent('a'));
  const b = await realtimeSocket(webB, person.token, onEvent('b'));
  const across: number[] = [];
  const fromSent: number[] = [];
  const local: number[] = [];
  let lost = 0;
  for (let n = 0; busy(); n++) {
    const [beforeA, beforeB] = [arrivals.get('a')!.length, arrivals.get('b')!.length];
    const sentAt = performance.now();
    await person.http.request(`http://127.0.0.1:${webA}/api/v1/teams/${teamId}`, {
      method: 'PATCH',
      headers: json(person.token),
      body: JSON.stringify({ name: `Realtime probe ${n}` }),
    });
    const answeredAt = performance.now();
    const deadline = performance.now() + 2000;
    while ((arrivals.get('a')!.length === beforeA || arrivals.get('b')!.length === beforeB) && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 1));
    const [atA, atB] = [arrivals.get('a')![beforeA], arrivals.get('b')![beforeB]];
    if (atA === undefined || atB === undefined) {
      lost++;
      // A late arrival must not be taken for the next one's.
      await new Promise((resolve) => setTimeout(resolve, 2000));
    } else {
      across.push(atB - answeredAt);
      fromSent.push(atB - sentAt);
      local.push(atA - answeredAt);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  a.close();
  b.close();
  return { across, fromSent, local, lost };
}

type UploadResult = { meetingId: string; outcome: 'completed' | 'resumable' | 'lost'; detail?: string };

/** A meeting made and its recording sent through HAProxy with tus in 64 KiB chunks (so a kill can land mid-upload). */
async function uploadRecording(base: string, person: Person, clip: string, n: number): Promise<UploadResult> {
  // Made again when the answer was lost (a process killed mid-request), as a person would click again.
  let created: Answer = { status: 0, body: '' };
  for (let attempt = 0; attempt < 3 && created.status !== 201; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 1000));
    created = await person.http
      .request(`${base}/api/v1/meetings`, {
        method: 'POST',
        headers: json(person.token),
        body: JSON.stringify({ title: `Scale upload ${n}`, source: 'upload' }),
      })
      .catch((error: unknown) => ({ status: 0, body: (error as Error).message }));
  }
  if (created.status !== 201) return { meetingId: '', outcome: 'lost', detail: `create ${created.status} ${created.body}` };
  const meetingId = (JSON.parse(created.body) as { id: string }).id;
  const data = fs.readFileSync(clip);
  let uploadUrl: string | null = null;
  let upload: tus.Upload | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      setTimeout(() => reject(new Error(`not finished within ${UPLOAD_DEADLINE_MS / 1000} s`)), UPLOAD_DEADLINE_MS).unref();
      upload = new tus.Upload(data, {
        endpoint: `${base}/uploads`,
        headers: { authorization: `Bearer ${person.token}` },
        metadata: { meetingId, filetype: 'audio/wav' },
        chunkSize: 64 * 1024,
        // The web app's own retries (upload-recording.tsx).
        retryDelays: [0, 1000, 3000, 5000, 10_000, 20_000],
        onSuccess: () => resolve(),
        onError: reject,
        onAfterResponse: (req) => {
          uploadUrl ??= req.getURL();
        },
      });
      upload.start();
    });
    return { meetingId, outcome: 'completed' };
  } catch (error) {
    await upload?.abort();
    // Not completed: resumable when the server still knows the upload and its offset.
    const head = uploadUrl
      ? await fetch(uploadUrl, { method: 'HEAD', headers: { authorization: `Bearer ${person.token}`, 'tus-resumable': '1.0.0' } })
      : undefined;
    return { meetingId, outcome: head?.ok ? 'resumable' : 'lost', detail: (error as Error).message };
  }
}

type LiveResult = { outcome: 'completed' | 'interrupted' | 'refused'; latencies: number[]; detail?: string };

/**
 * One live transcript as the recorder runs it, through HAProxy: a meeting made, the /realtime/live
 * socket signed in for it, 100 ms PCM frames at real time, each line's latency taken from the end of
 * its speech in the audio to its arrival. A socket closed before the audio ends (its web process
 * killed) is `interrupted`; one refused before `ready` (busy, or no process to take it) `refused`.
 */
async function liveSession(base: string, person: Person, pcm: Buffer): Promise<LiveResult> {
  const created = await person.http
    .request(`${base}/api/v1/meetings`, { method: 'POST', headers: json(person.token), body: JSON.stringify({ title: 'Scale live', source: 'mic' }) })
    .catch((error: unknown) => ({ status: 0, body: (error as Error).message }));
  if (created.status !== 201) return { outcome: 'refused', latencies: [], detail: `create ${created.status}` };
  const meetingId = (JSON.parse(created.body) as { id: string }).id;
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}${LIVE_PATH}`, { localAddress: person.address });
  const arrivals: { endMs: number; at: number }[] = [];
  let ended: string | undefined;
  let started = 0;
  const ready = new Promise<boolean>((resolve) => {
    socket.once('open', () => socket.send(JSON.stringify({ type: 'auth', accessToken: person.token, meetingId, channels: 1 } satisfies LiveAuthMessage)));
    socket.on('message', (data: Buffer) => {
      const message = LiveServerMessageSchema.safeParse(JSON.parse(data.toString()));
      if (!message.success) return;
      if (message.data.type === 'ready') resolve(true);
      else if (message.data.type === 'line') arrivals.push({ endMs: message.data.line.endMs, at: performance.now() });
      else if (message.data.type === 'error') ended ??= message.data.message;
    });
    socket.on('close', (code: number, reason: Buffer) => {
      ended ??= `closed ${code} ${reason.toString()}`.trim();
      resolve(false);
    });
    socket.on('error', (error: Error) => {
      ended ??= error.message;
      resolve(false);
    });
  });
  if (!(await ready)) return { outcome: 'refused', latencies: [], detail: ended };
  const frameBytes = 100 * 32;
  // A second of silence after the speech closes the last utterance, as a pause in talk would.
  const audio = Buffer.concat([pcm, Buffer.alloc(1000 * 32)]);
  started = performance.now();
  for (let i = 0; i * frameBytes < audio.length && ended === undefined; i++) {
    const due = started + (i + 1) * 100;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    if (socket.readyState === WebSocket.OPEN) socket.send(audio.subarray(i * frameBytes, (i + 1) * frameBytes));
  }
  const interrupted = ended;
  if (interrupted === undefined) await new Promise((resolve) => setTimeout(resolve, 3000));
  socket.close();
  return {
    outcome: interrupted === undefined ? 'completed' : 'interrupted',
    latencies: arrivals.map(({ endMs, at }) => at - started - endMs),
    detail: interrupted,
  };
}

/** The database's account of every uploaded meeting: its state, and how many times each hand-off happened. */
async function readOutcome(databaseUrl: string, meetingIds: string[]) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const meetings = await db.query<{ id: string; status: string; notes: string | null; segments: string }>(
      `select m.id, m.status, n.status as notes, (select count(*) from transcript_segments s where s.meeting_id = m.id) as segments
         from meetings m left join meeting_notes n on n.meeting_id = m.id where m.id = any($1)`,
      [meetingIds],
    );
    const events = await db.query<{ type: string; subject_id: string; n: string }>(
      `select type, subject_id, count(*) as n from domain_events where subject_id = any($1) and type in ('recording.stored', 'transcript.ready', 'notes.ready') group by type, subject_id`,
      [meetingIds],
    );
    const deliveries = await db.query<{ status: string; n: string }>(`select status, count(*) as n from event_deliveries group by status`);
    // Where an unfinished meeting's jobs stand (the stage each last reported, and when a retry is due).
    const progress = await db.query<{ queue: string; key: string; stage: string | null; retry_at: string | null }>(
      `select queue, key, stage, retry_at from job_progress where key = any($1)`,
      [meetingIds],
    );
    return {
      meetings: meetings.rows,
      events: events.rows,
      deliveries: Object.fromEntries(deliveries.rows.map((r) => [r.status, Number(r.n)])),
      progress: progress.rows,
    };
  } finally {
    await db.end();
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

export async function benchScale(): Promise<{ rows: Row[]; line: string }> {
  const adminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `parley_bench_scale_${process.pid}`;
  const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-scale-'));
  const crashes: string[] = [];
  const cluster = await startCluster({
    web: 2,
    workers: 2,
    port: 0,
    dir,
    databaseUrl,
    logLevel: 'warn',
    quiet: true,
    env: {
      PARLEY_AUTO_MODELS: 'false',
      TRANSCRIBE_ENGINE: 'pocketsphinx',
      NOTES_ENGINE: 'local',
      TRANSCRIBE_RETRY_DELAY_SECONDS: '1',
      AUTH_AUTOCONFIRM: 'true',
    },
    onUnexpectedExit: (proc: Proc, how: unknown) => crashes.push(`${proc.name} exited with ${String(how)}`),
  });
  const base = cluster.url;
  const [web1, web2] = cluster.webs as [Required<Proc>, Required<Proc>];
  const rows: Row[] = [];
  const people: Person[] = [];
  try {
    for (let i = 0; i < USERS; i++) people.push(await newPerson(base, i));
    const operator = people[0]!;
    const start = { web1: await healthOf(web1.port, operator.token), web2: await healthOf(web2.port, operator.token) };

    // Throughput: the same mix through HAProxy with web2 taken out, then with both, in turns of a
    // third of the phase each, so a change in what else the machine runs weighs on both alike.
    const one = { ok: 0, seconds: 0, failed: 0 };
    const two = { ok: 0, seconds: 0, failed: 0 };
    const add = (total: typeof one, part: Tally & { seconds: number }) => {
      total.ok += part.ok;
      total.seconds += part.seconds;
      total.failed += part.errors.length;
    };
    for (let turn = 0; turn < 3; turn++) {
      await haproxyCommand(cluster.haproxy.adminSocket, 'disable server web/web2');
      const a = await load(base, people, PHASE_SECONDS / 3);
      await haproxyCommand(cluster.haproxy.adminSocket, 'enable server web/web2');
      const b = await load(base, people, PHASE_SECONDS / 3);
      add(one, a);
      add(two, b);
    }
    const rate = (t: { ok: number; seconds: number }) => t.ok / t.seconds;
    const ratio = rate(two) / rate(one);

    // Realtime across processes under the same load through both.
    let probing = true;
    const probe = realtimeProbe(web1.port, web2.port, people[1]!, () => probing);
    await load(base, people, PHASE_SECONDS / 2);
    probing = false;
    const realtime = await probe;

    // The brute force: wrong passwords for one person from one address until it is refused.
    const victim = people[2]!;
    const attacker = { email: victim.email, http: client('127.0.0.250') };
    let attempts = 0;
    while ((await signIn(base, attacker, 'wrong-password')).status !== 429 && attempts < 50) attempts++;
    let letThrough = 0;
    let refused = 0;
    let unanswered = 0;

    // The mixed load with the faults.
    const faultStart = performance.now();
    const elapsed = () => (performance.now() - faultStart) / 1000;
    let planDone = false;
    const faultDone = () => planDone && elapsed() > FAULT_SECONDS;
    const bruteForce = (async () => {
      while (!faultDone()) {
        const answer = await signIn(base, attacker, 'wrong-password').catch(() => ({ status: 0 }));
        if (answer.status === 429) refused++;
        // 400: the password was checked (and found wrong), which a block must prevent.
        else if (answer.status === 400) letThrough++;
        else unanswered++;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    const uploads = (async () => {
      const results: Promise<UploadResult>[] = [];
      for (let n = 0; n < UPLOADS; n++) {
        results.push(uploadRecording(base, people[3 + (n % (USERS - 3))]!, CLIPS[n % CLIPS.length]!, n));
        await new Promise((resolve) => setTimeout(resolve, ((FAULT_SECONDS * 0.7) / UPLOADS) * 1000));
      }
      return Promise.all(results);
    })();
    const livePcm = pcmOf('librivox_ss_5utt.wav');
    const live = (async () => {
      const results: LiveResult[] = [];
      await Promise.all(
        Array.from({ length: LIVE_AT_ONCE }, async (_, i) => {
          const person = people[USERS - 1 - i]!;
          while (!faultDone()) results.push(await liveSession(base, person, livePcm));
        }),
      );
      return results;
    })();
    /** `until`: a kill's end, once the process has exited (a request sent meanwhile was in flight on it too). */
    const faults: { what: string; at: number; until?: number }[] = [];
    let web2Before: Health | undefined;
    const faultPlan = (async () => {
      const at = async (fraction: number) => {
        while (elapsed() < FAULT_SECONDS * fraction) await new Promise((resolve) => setTimeout(resolve, 100));
      };
      // Each killed process is started again 3 s later, as a supervisor (systemd, Docker) would.
      await at(0.15);
      faults.push({ what: 'kill -9 worker1', at: performance.now() });
      await cluster.kill('worker1', 'SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await cluster.restart('worker1');
      await at(0.3);
      web2Before = await healthOf(web2.port, operator.token);
      const web2Kill = { what: 'kill -9 web2', at: performance.now(), until: Infinity };
      faults.push(web2Kill);
      await cluster.kill('web2', 'SIGKILL');
      web2Kill.until = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const web2Back = cluster.restart('web2');
      await at(0.55);
      faults.push({ what: 'restart Redis', at: performance.now() });
      await cluster.restartRedis();
      await web2Back;
      faults.push({ what: 'web2 ready again', at: performance.now() });
      planDone = true;
    })();
    const mixed = await load(base, people, faultDone);
    await faultPlan;
    await bruteForce;
    const uploaded = await uploads;
    const lives = await live;
    const end = { web1: await healthOf(web1.port, operator.token), web2: await healthOf(web2.port, operator.token) };

    // Every job to its end: each uploaded meeting transcribed and its notes written.
    // Uploads that did not complete are counted as such (resumable or lost), not waited for.
    const ids = uploaded.filter((u) => u.outcome === 'completed').map((u) => u.meetingId);
    const drainStart = performance.now();
    let outcome = await readOutcome(cluster.databaseUrl, ids);
    const finished = () => outcome.meetings.filter((m) => ['ready', 'failed'].includes(m.status) && ['ready', 'failed'].includes(m.notes ?? '')).length;
    let lastProgress = { at: performance.now(), finished: finished() };
    while (finished() < ids.length && performance.now() - lastProgress.at < DRAIN_STALL_MS) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      outcome = await readOutcome(cluster.databaseUrl, ids);
      if (finished() > lastProgress.finished) lastProgress = { at: performance.now(), finished: finished() };
    }
    // Deliveries of the last events (notifications, activity) a moment after the notes.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    outcome = await readOutcome(cluster.databaseUrl, ids);
    const drainSeconds = (performance.now() - drainStart) / 1000;

    const count = (type: string, id: string) => Number(outcome.events.find((e) => e.type === type && e.subject_id === id)?.n ?? 0);
    const lostUploads = uploaded.filter((u) => u.outcome === 'lost').length;
    const notDone = outcome.meetings.filter((m) => m.status !== 'ready' || m.notes !== 'ready');
    const lostJobs = notDone.length + ids.length - outcome.meetings.length;
    const duplicates = ids.reduce(
      (sum, id) => sum + ['recording.stored', 'transcript.ready', 'notes.ready'].reduce((s, type) => s + Math.max(0, count(type, id) - 1), 0),
      0,
    );
    const webKill = faults.find((f) => f.what === 'kill -9 web2')!;
    const fiveHundreds = mixed.errors.filter((e) => typeof e.status === 'string' || e.status >= 500);
    const inFlight = fiveHundreds.filter((e) => e.started <= (webKill.until ?? webKill.at) && e.at >= webKill.at);
    const beyond = fiveHundreds.length - inFlight.length;
    const otherErrors = mixed.errors.filter((e) => typeof e.status === 'number' && e.status < 500);
    const p99s = [end.web1, web2Before!, end.web2].map((h) => h.eventLoopDelayMs.p99);
    const loopP99 = Math.max(...p99s);
    const liveLatencies = lives.flatMap((l) => l.latencies);
    const liveCount = (outcome: LiveResult['outcome']) => lives.filter((l) => l.outcome === outcome).length;
    const liveReasons = [...new Set(lives.filter((l) => l.detail).map((l) => `${l.outcome}: ${l.detail}`))];
    const acrossP95 = percentile(realtime.across, 95);
    const localP95 = percentile(realtime.local, 95);
    const sentP95 = percentile(realtime.fromSent, 95);

    rows.push(
      { name: 'machine', value: `${os.availableParallelism()} cores, ${mb(os.totalmem())} memory` },
      { name: 'engines', value: 'pocketsphinx (real, offline) for transcription, the local notes engine; real clips from /work/shared/data/audio' },
      {
        name: `throughput, 1 web (web2 disabled in HAProxy), ${CONNECTIONS} connections`,
        value: `${rate(one).toFixed(0)} req/s over ${one.seconds.toFixed(0)} s, ${one.failed} failed`,
      },
      {
        name: `throughput, 2 web, ${CONNECTIONS} connections`,
        value: `${rate(two).toFixed(0)} req/s over ${two.seconds.toFixed(0)} s, ${two.failed} failed`,
      },
      {
        name: 'realtime across processes (under load through both)',
        value:
          `web1 answered the rename → event on web2: p50 ${percentile(realtime.across, 50).toFixed(1)} ms, p95 ${acrossP95.toFixed(1)} ms, max ${Math.max(...realtime.across).toFixed(1)} ms ` +
          `over ${realtime.across.length} events, ${realtime.lost} lost; on web1 itself p95 ${localP95.toFixed(1)} ms; from the rename sent, on web2 p95 ${sentP95.toFixed(1)} ms`,
        note: 'PostgreSQL LISTEN/NOTIFY',
      },
      {
        name: `mixed load with faults (${FAULT_SECONDS} s)`,
        value: `${rate(mixed).toFixed(0)} req/s, ${mixed.ok} answered; ${Object.entries(mixed.byKind)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
      },
      {
        name: 'faults',
        value: faults
          .map(
            (f) => `${f.what} at ${((f.at - faultStart) / 1000).toFixed(1)}${f.until === undefined ? '' : `–${((f.until - faultStart) / 1000).toFixed(1)}`} s`,
          )
          .join('; '),
      },
      {
        name: '5xx and connection errors',
        value: `${fiveHundreds.length} (${inFlight.length} in flight on web2 when killed, ${beyond} beyond${
          beyond > 0
            ? `: ${fiveHundreds
                .filter((e) => !inFlight.includes(e))
                .map((e) => `${e.kind} ${e.status} at ${((e.started - faultStart) / 1000).toFixed(1)}–${((e.at - faultStart) / 1000).toFixed(1)} s`)
                .join(', ')}`
            : ''
        }); other refusals ${otherErrors.length}${otherErrors.length ? ` (${[...new Set(otherErrors.map((e) => `${e.kind} ${e.status}`))].join(', ')})` : ''}`,
      },
      {
        name: 'sign-in brute force (one address, one email)',
        value: `refused after ${attempts} failures; then ${refused} refused, ${letThrough} let through (password checked), ${unanswered} unanswered, across the kills and the Redis restart`,
      },
      {
        name: 'uploads',
        value:
          `${uploaded.filter((u) => u.outcome === 'completed').length} completed, ${uploaded.filter((u) => u.outcome === 'resumable').length} resumable, ${lostUploads} lost of ${UPLOADS}` +
          uploaded
            .filter((u) => u.detail)
            .map((u) => ` (${u.outcome}: ${u.detail})`)
            .join(''),
      },
      {
        name: `live transcripts (${LIVE_AT_ONCE} at once, through HAProxy, during the faults)`,
        value:
          `${lives.length} sessions: ${liveCount('completed')} completed, ${liveCount('interrupted')} interrupted, ${liveCount('refused')} refused; ` +
          (liveLatencies.length === 0
            ? 'no lines'
            : `line latency p50 ${percentile(liveLatencies, 50).toFixed(0)} ms, p95 ${percentile(liveLatencies, 95).toFixed(0)} ms over ${liveLatencies.length} lines`) +
          (liveReasons.length ? ` (${liveReasons.join('; ')})` : ''),
        note: 'pocketsphinx; a session on the killed web process ends, as the recorder then reconnects',
      },
      {
        name: 'jobs (read from the database)',
        value:
          `${outcome.meetings.filter((m) => m.status === 'ready').length}/${ids.length} transcribed, ${outcome.meetings.filter((m) => m.notes === 'ready').length} with notes, ${drainSeconds.toFixed(0)} s after the load; ${duplicates} duplicated hand-offs; deliveries ${JSON.stringify(outcome.deliveries)}` +
          notDone
            .map((m) => {
              const jobs = outcome.progress
                .filter((p) => p.key === m.id)
                .map((p) => `${p.queue} ${p.stage ?? 'no stage'}${p.retry_at ? `, retry at ${p.retry_at}` : ''}`);
              return `; not done: ${m.id.slice(0, 8)} ${m.status}, notes ${m.notes ?? 'none'}${jobs.length ? ` (${jobs.join('; ')})` : ''}`;
            })
            .join(''),
      },
      {
        name: 'event-loop delay p99 (web1 whole run; web2 before its kill and since its restart)',
        value: `web1 ${end.web1.eventLoopDelayMs.p99} ms (max ${end.web1.eventLoopDelayMs.max}); web2 ${web2Before!.eventLoopDelayMs.p99} ms, then ${end.web2.eventLoopDelayMs.p99} ms`,
      },
      {
        name: 'RSS start → end',
        value: `web1 ${mb(start.web1.rssBytes)} → ${mb(end.web1.rssBytes)}; web2 ${mb(start.web2.rssBytes)} → ${mb(web2Before!.rssBytes)} at its kill, restarted ${mb(end.web2.rssBytes)}`,
      },
    );
    if (crashes.length > 0) rows.push({ name: 'unexpected exits', value: crashes.join('; ') });
    const line =
      `scale: 2 web = ${ratio.toFixed(2)}x 1 web; event-loop p99 ${loopP99} ms; realtime across processes p95 ${acrossP95.toFixed(1)} ms; ` +
      `lost ${lostUploads} uploads, ${lostJobs} jobs; duplicate jobs ${duplicates} (${os.availableParallelism()} cores)`;
    return { rows, line };
  } finally {
    for (const person of people) person.http.close();
    await cluster.stop();
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
