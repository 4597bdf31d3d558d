// `npm run bench`: figures printed, never asserted. BENCH_SECONDS sets each load test's length.
import fs from 'node:fs';
import { benchAsk } from './ask.ts';
import { benchAuthenticatedJson, benchRefresh, benchSignIn } from './auth-load.ts';
import { measureBundles } from './bundle-size.ts';
import { benchLighthouse } from './lighthouse.ts';
import { benchLiveLatency } from './live-latency.ts';
import { benchMeetings, benchMeetingsPostgres, benchUpload } from './meetings-load.ts';
import { benchNotesLocal } from './notes-local.ts';
import { benchNotesLlm } from './notes-llm.ts';
import { benchOffThread } from './off-thread.ts';
import { benchScale } from './scale.ts';
import { benchSpeakers } from './speakers.ts';
import { benchSpeakersRecording } from './speakers-recording.ts';
import { benchTranscription } from './transcription.ts';
import { benchVoices } from './voices.ts';
import { benchVocabulary } from './vocabulary.ts';
import { benchTranscriptionMemory } from './transcription-memory.ts';
import { median, printSection, type Row } from './lib/report.ts';
import { startServer } from './lib/server.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
/** BENCH_ONLY=meetings,upload runs just those sections (cold, auth, me (auth's GET /api/v1/me alone), meetings, meetings-pg, off-thread, upload, transcription, vocabulary, transcription-memory, speakers, voices, speakers-recording, live, notes, notes-llm, ask, bundles, lighthouse, scale). */
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
const wanted = (section: string) => !only || only.includes(section);

async function readAnonKey(baseUrl: string): Promise<string> {
  const script = await (await fetch(`${baseUrl}/app-config.js`)).text();
  const match = /"anonKey":"([^"]+)"/.exec(script);
  if (!match?.[1]) throw new Error('no anon key in /app-config.js');
  return match[1];
}

async function coldStart(): Promise<Row[]> {
  const first: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < 5; i++) {
    const server = await startServer();
    first.push(server.startupMs);
    await server.stop();
    const again = await startServer({ dataDir: server.dataDir });
    warm.push(again.startupMs);
    await again.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
  return [
    { name: 'first start (new database: migrations, key generation)', value: `${median(first).toFixed(0)} ms median of 5` },
    { name: 'restart (existing database)', value: `${median(warm).toFixed(0)} ms median of 5` },
  ];
}

console.log(`Parley benchmarks — ${new Date().toISOString()}, Node ${process.versions.node}, load tests ${seconds} s each`);
if (wanted('cold')) printSection('Server cold start (spawn → /healthz answers)', await coldStart());

// `me` alone: the authenticated-JSON comparison without the sign-in and refresh loads before it.
if (wanted('auth') || only?.includes('me')) {
  const server = await startServer({ env: { AUTH_RATE_LIMITS: 'false' } });
  try {
    const apikey = await readAnonKey(server.baseUrl);
    const loads = wanted('auth') ? [await benchSignIn(server.baseUrl, apikey, seconds), await benchRefresh(server.baseUrl, apikey, seconds)] : [];
    const me = await benchAuthenticatedJson(server.baseUrl, server.dataDir, apikey, seconds);
    printSection('Auth and API under load (SQLite, one process)', [...loads, ...me.rows]);
    console.log(`\n${me.line}`);
  } finally {
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}

if (wanted('meetings')) printSection('Meetings at scale (SQLite, one process)', await benchMeetings(seconds));
if (wanted('meetings-pg')) printSection('Meetings at scale (PostgreSQL, one process)', await benchMeetingsPostgres(seconds));
if (wanted('off-thread')) printSection('Exports and imports off the event loop (SQLite, one process)', await benchOffThread());
if (wanted('upload')) printSection('Uploads', await benchUpload());
if (wanted('transcription')) for (const section of await benchTranscription()) printSection(section.title, section.rows);
if (wanted('vocabulary')) for (const section of await benchVocabulary()) printSection(section.title, section.rows);
if (wanted('transcription-memory')) printSection('Transcription memory: a long recording in a worker process', await benchTranscriptionMemory());
if (wanted('speakers'))
  printSection('Speaker counts: true and found per clip, DER (NIST md-eval, 0.25 s collar), by the built-in clustering', await benchSpeakers());
if (wanted('voices')) printSection('Voices across meetings: enrolled in one recording, met in another (built-in features)', await benchVoices());
if (wanted('speakers-recording'))
  printSection("Speakers found: recorded on /record (chromium's fake microphone) and imported, per clip", await benchSpeakersRecording());
if (wanted('live')) printSection('Live transcript (speech end → line received, audio streamed at real time)', await benchLiveLatency());
if (wanted('notes')) for (const section of await benchNotesLocal()) printSection(section.title, section.rows);
if (wanted('notes-llm')) printSection('Notes LLM engine (one-hour meeting, fake OpenAI-compatible server on loopback)', await benchNotesLlm());
if (wanted('ask')) printSection('Ask: QMSum product questions, their answer turns among the citations', await benchAsk());
if (wanted('bundles')) printSection('Web bundle sizes', measureBundles());
if (wanted('lighthouse')) printSection('Lighthouse (mobile: simulated slow 4G and 4× CPU slowdown, fresh browser each page)', await benchLighthouse());
if (wanted('scale')) {
  const { rows, line } = await benchScale();
  printSection('Scale: npm run cluster (2 web + 2 worker behind HAProxy, PostgreSQL, Redis) under load, with kills', rows);
  console.log(`\n${line}`);
}
