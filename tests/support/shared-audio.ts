import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The real speech clips of ../shared/data/audio (beside the repository). A clone elsewhere can point
 * PARLEY_SHARED_AUDIO_DIR at them; without them the audio tests fail with this message, not silently.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function sharedAudioDir(): string {
  const candidates = [process.env.PARLEY_SHARED_AUDIO_DIR, path.resolve(repoRoot, '..', 'shared', 'data', 'audio'), '/work/shared/data/audio'];
  const found = candidates.find((dir): dir is string => dir !== undefined && fs.existsSync(path.join(dir, 'goforward.wav')));
  if (!found) throw new Error(`The speech clips were not found (looked in ${candidates.filter(Boolean).join(', ')}); set PARLEY_SHARED_AUDIO_DIR.`);
  return found;
}

/** A stretch of one of the shared clips, written to `out` (through ffmpeg's audio `filter`, if any, as another microphone would hear it). */
export function cutSharedClip(clip: string, out: string, fromS: number, toS: number, filter?: string): string {
  const filtered = filter ? ['-af', filter] : [];
  execFileSync('ffmpeg', [
    '-nostdin',
    '-loglevel',
    'error',
    '-i',
    path.join(sharedAudioDir(), clip),
    '-ss',
    String(fromS),
    '-to',
    String(toS),
    ...filtered,
    out,
  ]);
  return out;
}
