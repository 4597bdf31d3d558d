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

/**
 * Talk of `seconds`, small and made in seconds whatever its length: a minute of the `clips` one
 * after another (then silence to the minute) encoded once (Opus, 16 kb/s), its packets repeated
 * without re-encoding. The same minute again and again: voices to tell apart in every window.
 */
export const longSpeechOpusArgs = (clips: string[], minuteFile: string, seconds: number, out: string) => ({
  minute: [
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    ...clips.flatMap((clip) => ['-i', clip]),
    '-filter_complex',
    `${clips.map((_, i) => `[${i}:a]aresample=48000,aformat=channel_layouts=mono[a${i}]`).join(';')};${clips.map((_, i) => `[a${i}]`).join('')}concat=n=${clips.length}:v=0:a=1,apad=whole_dur=60`,
    '-t',
    '60',
    '-c:a',
    'libopus',
    '-b:a',
    '16k',
    '-frame_duration',
    '120',
    minuteFile,
  ],
  whole: ['-nostdin', '-loglevel', 'error', '-y', '-stream_loop', '-1', '-i', minuteFile, '-t', String(seconds), '-c', 'copy', out],
});
