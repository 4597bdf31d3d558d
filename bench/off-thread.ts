import fs from 'node:fs';
import { MAX_IMPORT_SEGMENTS } from '#shared/contracts/meetings.ts';
import { longVtt } from '#tests/support/long-transcript.ts';
import { signUpAndIn } from './auth-load.ts';
import type { Row } from './lib/report.ts';
import { startServer } from './lib/server.ts';

/**
 * The server answering others while it makes files of a long meeting (PDF exports) or reads a large
 * transcript file (imports): /healthz is asked over and over, one request after the other, while
 * the work is in flight, and its slowest answer is the figure. Exports and imports run in host
 * processes (meetings/document-work.ts), so it stays short; on the server's thread five PDFs of a
 * long meeting held it 3.9 s.
 */
async function worstHealthzDuring<T>(baseUrl: string, work: () => Promise<T>): Promise<{ result: T; worstMs: number; answers: number; workMs: number }> {
  let settled = false;
  let worstMs = 0;
  let answers = 0;
  const started = performance.now();
  const watched = work().finally(() => (settled = true));
  const poll = (async () => {
    while (!settled) {
      const asked = performance.now();
      await (await fetch(`${baseUrl}/healthz`)).arrayBuffer();
      worstMs = Math.max(worstMs, performance.now() - asked);
      answers++;
    }
  })();
  const result = await watched;
  const workMs = performance.now() - started;
  await poll;
  return { result, worstMs, answers, workMs };
}

export async function benchOffThread(): Promise<Row[]> {
  const server = await startServer({ env: { AUTH_RATE_LIMITS: 'false' } });
  try {
    const email = `bench-off-thread-${Date.now()}@example.com`;
    const { access_token: token } = await signUpAndIn(server.baseUrl, 'bench', email, 'bench-password-1');
    const json = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const importFile = async (fileName: string, content: string) => {
      const response = await fetch(`${server.baseUrl}/api/v1/meetings/imports`, { method: 'POST', headers: json, body: JSON.stringify({ fileName, content }) });
      if (response.status !== 201) throw new Error(`import failed: ${response.status} ${await response.text()}`);
      return (await response.json()) as { id: string };
    };
    const pdf = async (id: string) => {
      const response = await fetch(`${server.baseUrl}/api/v1/meetings/${id}/export?format=pdf`, { headers: { authorization: `Bearer ${token}` } });
      if (!response.ok) throw new Error(`export failed: ${response.status} ${await response.text()}`);
      return (await response.arrayBuffer()).byteLength;
    };

    const meeting = await importFile('Two-hour review.vtt', longVtt(2400));
    // One export first: the measured ones find the host processes started, as a server in use would.
    await pdf(meeting.id);
    const exports = await worstHealthzDuring(server.baseUrl, () => Promise.all(Array.from({ length: 5 }, () => pdf(meeting.id))));
    // The largest import allowed: MAX_IMPORT_SEGMENTS cues (about 3 MB of these).
    const cues = MAX_IMPORT_SEGMENTS;
    const vtt = longVtt(cues);
    const imports = await worstHealthzDuring(server.baseUrl, () => importFile('Offsite.vtt', vtt));
    // The same polling with nothing in flight: on a busy machine the scheduler alone makes some answers slow.
    const idle = await worstHealthzDuring(server.baseUrl, () => new Promise((resolve) => setTimeout(resolve, exports.workMs)));
    return [
      {
        name: '/healthz worst answer during five parallel PDF exports',
        value: `${exports.worstMs.toFixed(0)} ms (${exports.answers} answers; the five PDFs of a two-hour meeting, ${(exports.result[0]! / 1024).toFixed(0)} KiB each, in ${(exports.workMs / 1000).toFixed(1)} s)`,
        note: 'goal ≤ 100 ms',
      },
      {
        name: '/healthz worst answer during the largest WebVTT import allowed',
        value: `${imports.worstMs.toFixed(0)} ms (${imports.answers} answers; ${cues} cues imported and answered in ${(imports.workMs / 1000).toFixed(1)} s)`,
        note: 'goal ≤ 100 ms',
      },
      { name: '/healthz worst answer with nothing else in flight (baseline)', value: `${idle.worstMs.toFixed(0)} ms (${idle.answers} answers)` },
    ];
  } finally {
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}
