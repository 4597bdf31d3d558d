/**
 * A server stand-in that starts an echo host, has it block its event loop on long work, and writes
 * the host's pid to HOST_PID_FILE: a test kills this process with SIGKILL and watches the host.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHost, TYPESCRIPT_EXEC_ARGV } from '#server/lib/child-host/host-client.ts';
import type { EchoConfig, EchoInput, EchoOutput } from './echo-host.ts';

const pidFile = process.env.HOST_PID_FILE;
if (!pidFile) throw new Error('HOST_PID_FILE names where the host pid goes');
const host = await startHost<EchoConfig, { pid: number }, EchoInput, EchoOutput>({
  entry: { file: path.join(path.dirname(fileURLToPath(import.meta.url)), 'echo-host.ts'), execArgv: [...TYPESCRIPT_EXEC_ARGV] },
  config: {},
  abort: 'message',
  idleMs: 600_000,
  loadTimeoutMs: 60_000,
  words: { stopped: 'the echo host stopped', failed: 'the echo host failed', cancelled: 'The echo was cancelled.' },
});
fs.writeFileSync(pidFile, String(host.loaded.pid));
void host.run({ busyMs: 600_000 }).catch(() => undefined);
console.log('ready');
