import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parsePocketsphinxOutput } from '../engines/pocketsphinx-output.ts';
import { POCKETSPHINX_BINARY, POCKETSPHINX_MODEL_DIR } from '../engines/pocketsphinx.ts';
import type { RecognizedSegment } from '../engines/engine.ts';

const run = promisify(execFile);

/**
 * Debian's pocketsphinx as a streaming recogniser: PCM written to a named pipe it reads as its
 * input file (a Node child's stdin is a socket, which it cannot open), one utterance out as soon as
 * it hears the speaker pause. `stdbuf -oL` makes it print each line at once instead of buffering.
 *
 * The pipe is opened read-write and non-blocking (Linux opens a FIFO so at once, reader or not) and
 * written through a libuv pipe handle (net.Socket): no open or write ever waits in Node's thread pool.
 * A plain write-only open waits there until the recogniser opens its end, and one killed before it
 * did held a pool thread for ever: four dropped sessions stopped sign-ups, static files and SIGTERM.
 */
export type StreamingRecognizer = {
  write: (pcm: Buffer) => void;
  /** Bytes written but not yet taken by the recogniser: how far behind it is (backpressure). */
  backlogBytes: () => number;
  /** Settles when the process has exited, for whatever reason (killed, crashed, audio ended). */
  exited: Promise<void>;
  kill: () => void;
};

/**
 * Voice activity settings for live lines: speech must stand 3 dB (not 2) above the noise floor, so a
 * noisy line (an old broadcast, a fan) does not hold an utterance open until the audio ends, and 0.3 s
 * of quiet (not 0.5) ends an utterance. Measured streaming at real time: jfk.wav's lines came 1–4.5 s
 * after their speech instead of only when the audio stopped, leopard_3spk's 0.25–0.8 s instead of
 * 1–1.5 s. Lines split a little more often; the saved transcript is made by the job, not from these.
 */
const LIVE_VAD = ['-vad_threshold', '3.0', '-vad_postspeech', '30'];

export const isStreamingAvailable = () => fs.existsSync(POCKETSPHINX_BINARY) && fs.existsSync(POCKETSPHINX_MODEL_DIR) && fs.existsSync('/usr/bin/stdbuf');

export async function startStreamingRecognizer(onUtterance: (segment: RecognizedSegment) => void): Promise<StreamingRecognizer> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'parley-live-'));
  const fifo = path.join(dir, 'audio.raw');
  await run('mkfifo', ['-m', '600', fifo]);
  const fd = await promisify(fs.open)(fifo, fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
  // Holding the read end as well means no EPIPE when the recogniser dies: its exit is watched instead.
  const pipe = new net.Socket({ fd, readable: false, writable: true });
  pipe.on('error', () => undefined); // the recogniser went away: kill() and exited clean up
  const child: ChildProcess = spawn(
    'stdbuf',
    ['-oL', POCKETSPHINX_BINARY, '-hmm', POCKETSPHINX_MODEL_DIR, '-infile', fifo, '-time', 'yes', ...LIVE_VAD, '-logfn', '/dev/null'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const exited = new Promise<void>((resolve) => {
    child.on('close', () => resolve());
    child.on('error', () => resolve()); // could not be started at all
  });
  // Output comes as: a text line, then one timed line per token, ending with `</s>`.
  let pending = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    let end = pending.indexOf('</s>');
    while (end >= 0) {
      const lineEnd = pending.indexOf('\n', end);
      if (lineEnd < 0) break;
      const utterance = pending.slice(0, lineEnd + 1);
      pending = pending.slice(lineEnd + 1);
      for (const segment of parsePocketsphinxOutput(utterance)) onUtterance(segment);
      end = pending.indexOf('</s>');
    }
  });
  const cleanup = async () => {
    pipe.destroy();
    await fs.promises.rm(dir, { recursive: true, force: true });
  };
  void exited.then(cleanup);
  return {
    write: (pcm) => void pipe.write(pcm),
    backlogBytes: () => pipe.writableLength,
    exited,
    kill: () => {
      pipe.destroy();
      child.kill('SIGKILL');
    },
  };
}
