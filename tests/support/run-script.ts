import { execFile } from 'node:child_process';
import { TYPESCRIPT_EXEC_ARGV } from '#server/lib/child-host/host-client.ts';

export type ScriptResult = { code: number; stdout: string; stderr: string };

/**
 * Runs one of the repository's TypeScript scripts as `npm run <name>` would, with
 * extra environment variables, and answers its exit code and output (a failing exit is not thrown).
 */
export function runScript(script: string, args: string[], env: Record<string, string> = {}): Promise<ScriptResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...TYPESCRIPT_EXEC_ARGV, script, ...args], { env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
