import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { createDb } from '#server/db/create-db.ts';
import { createDeps } from '#server/deps.ts';
import { signUpUser } from '#tests/support/build-test-app.ts';
import { longSpeechOpusArgs, peakRssMb } from '#tests/support/process-memory.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import type { Row } from './lib/report.ts';

/**
 * The transcription worker's memory while it transcribes a long recording with speaker
 * identification on (the default): a 2-hour and an 8-hour Opus file of talk generated here with
 * ffmpeg (a minute of two shared recordings of two and three voices, repeated), queued by a web
 * process and transcribed by a separate worker process (ROLE=worker,
 * tests/support/transcription-worker.ts), whose peak RSS (VmHWM) is read from /proc, and that of
 * its speaker clustering host process. Decoding (ffmpeg), the pipeline and speaker identification
 * (clustering, Silero VAD) are real; the speech engine is the fake one that answers at once
 * (pocketsphinx would take hours on 8 hours of audio, and its own host process is not the
 * server's memory). Goal: under 400 MB for 8 hours. The machine's load is printed beside: a
 * shared machine makes the times, not the memory, vary.
 */
export async function benchTranscriptionMemory(): Promise<Row[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-memory-'));
  try {
    const rows: Row[] = [];
    // BENCH_MEMORY_HOURS=2 measures one length (the 8-hour one takes tens of minutes on a busy machine).
    const lengths = (process.env.BENCH_MEMORY_HOURS ?? '2,8').split(',').map(Number);
    for (const hours of lengths) {
      // A failed length is a row of its own: the other's figure is not lost with it.
      rows.push(
        await transcribeLong(dir, hours).catch((error: unknown) => ({
          name: `${hours}-hour recording of talk, speakers on`,
          value: `failed: ${error instanceof Error ? error.message : String(error)}`,
          note: 'goal < 400 MB',
        })),
      );
    }
    return rows;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function transcribeLong(dir: string, hours: number): Promise<Row> {
  const audio = path.join(dir, `${hours}h.ogg`);
  const clips = ['pyannote_sample_2spk_30s.wav', 'leopard_3spk.wav'].map((clip) => path.join(sharedAudioDir(), clip));
  const args = longSpeechOpusArgs(clips, path.join(dir, 'minute.ogg'), hours * 3600, audio);
  execFileSync('ffmpeg', args.minute);
  execFileSync('ffmpeg', args.whole);

  const dataDir = fs.mkdtempSync(path.join(dir, 'data-'));
  const dbFile = path.join(dataDir, 'bench.db');
  const database = createDb({ dialect: 'sqlite', file: dbFile });
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' });
  const deps = await createDeps(config, { database, role: 'web' });
  const app = await buildApp(deps);
  await app.ready();
  await deps.start();
  const worker = spawn(process.execPath, ['--import', 'tsx', 'tests/support/transcription-worker.ts'], {
    env: {
      ...process.env,
      WORKER_DB: 'sqlite',
      WORKER_DB_TARGET: dbFile,
      DATA_DIR: dataDir,
      TRANSCRIBE_MAX_ATTEMPTS: '1',
      TRANSCRIBE_RETRY_DELAY_SECONDS: '1',
      WORKER_ENGINE: 'fake',
      WORKER_SPEAKERS: 'clustering',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      worker.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
      worker.once('exit', (code) => reject(new Error(`the worker exited with ${code} before it was ready`)));
    });
    const idle = peakRssMb(worker.pid!);
    const { token } = await signUpUser(app, 'bench');
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/meetings',
      headers: { authorization: `Bearer ${token}` },
      payload: { title: `${hours} hours`, source: 'upload' },
    });
    const { id, owner } = created.json() as { id: string; owner: { id: string } };
    const copy = path.join(dir, `${id}.ogg`);
    fs.copyFileSync(audio, copy);
    const key = await deps.blobs.adopt(copy, 'ogg', { ownerId: owner.id, kind: 'recording' });
    await deps.services.meetings.recordingStored(id, { key, mime: 'audio/ogg', bytes: fs.statSync(audio).size, durationSeconds: hours * 3600 });
    const started = performance.now();
    await deps.services.transcription.enqueue(id);
    let status = 'processing';
    let failureReason: string | null = null;
    while (status === 'processing') {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const meeting = (await app.inject({ method: 'GET', url: `/api/v1/meetings/${id}`, headers: { authorization: `Bearer ${token}` } })).json() as {
        status: string;
        failureReason: string | null;
      };
      ({ status, failureReason } = meeting);
    }
    const seconds = (performance.now() - started) / 1000;
    const peak = peakRssMb(worker.pid!);
    // The clustering host (the worker's node child) stays up, idle, for minutes after the job.
    const host = childrenOf(worker.pid!).map((pid) => peakRssMb(pid));
    const load = os.loadavg()[0]!.toFixed(1);
    return {
      name: `${hours}-hour recording of talk (${(fs.statSync(audio).size / 1e6).toFixed(1)} MB Opus), speakers on, worker peak RSS`,
      value:
        `${peak.toFixed(0)} MB (idle ${idle.toFixed(0)} MB); clustering host ${host.map((mb) => `${mb.toFixed(0)} MB`).join(', ') || 'not found'}; ` +
        `${status} in ${seconds.toFixed(0)} s at load ${load}${failureReason ? `: ${failureReason}` : ''}`,
      note: 'goal < 400 MB; fake engine, real ffmpeg decode and speaker clustering',
    };
  } finally {
    worker.kill('SIGKILL');
    await app.close();
    await deps.close();
    await database.close();
  }
}

/** A process's children (their pids), from /proc. */
function childrenOf(pid: number): number[] {
  const tasks = fs.readdirSync(`/proc/${pid}/task`);
  return tasks.flatMap((task) => {
    const children = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    return children ? children.split(/\s+/).map(Number) : [];
  });
}
