import fs from 'node:fs';

/** A process's peak resident memory so far (VmHWM in /proc/<pid>/status), in MB. */
export function peakRssMb(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmHWM for process ${pid}`);
  return Number(match[1]) / 1024;
}

/**
 * A silent Opus file of `seconds`, small and made in about a second whatever its length: one minute
 * encoded (120 ms frames, 6 kb/s), then its packets repeated without re-encoding. Its Ogg pages
 * declare the whole duration, as an upload of hours of silence would.
 */
export const longSilentOpusArgs = (minuteFile: string, seconds: number, out: string) => ({
  minute: [
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'anullsrc=r=48000:cl=mono',
    '-t',
    '60',
    '-c:a',
    'libopus',
    '-b:a',
    '6k',
    '-frame_duration',
    '120',
    minuteFile,
  ],
  whole: ['-nostdin', '-loglevel', 'error', '-y', '-stream_loop', '-1', '-i', minuteFile, '-t', String(seconds), '-c', 'copy', out],
});
