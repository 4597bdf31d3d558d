import os from 'node:os';
import { createHostPool } from '#server/lib/child-host/host-pool.ts';
import { hostEntry, startHost, type Host } from '#server/lib/child-host/host-client.ts';
import type { ExportDocument } from './export-document.ts';
import type { parseTranscriptFile } from './import/parse-transcript.ts';

/**
 * Work on a meeting's files that takes the CPU for long enough to stop the server answering
 * anyone if it ran on its thread (a PDF or DOCX of a two-hour meeting, reading a 5 MB WebVTT
 * file: each up to a second, and several at once add up). It runs in
 * document-host.ts, in a small pool of host processes (lib/child-host, the mechanism the speech
 * and notes engines use), started on first use and let go after a few idle minutes.
 */
export type RenderedFormat = 'md' | 'docx' | 'pdf';

export type DocumentTask =
  | { kind: 'render'; format: RenderedFormat; doc: ExportDocument }
  /** `vocabulary`: the meeting's custom vocabulary, whose near-misses are corrected in the lines read (none: as written). */
  | { kind: 'parse-transcript'; fileName: string; content: string; vocabulary: readonly string[] };

export type TranscriptParse = ReturnType<typeof parseTranscriptFile>;

export type DocumentResult = { kind: 'rendered'; body: Uint8Array } | { kind: 'parsed'; outcome: TranscriptParse };

// Each host takes a core while it works: at most two, and one core left to the server's own thread.
const POOL_SIZE = Math.min(2, Math.max(1, os.availableParallelism() - 1));

const pool = createHostPool<DocumentTask, DocumentResult>({
  size: POOL_SIZE,
  start: () =>
    startHost<Record<string, never>, { ready: true }, DocumentTask, DocumentResult>({
      entry: hostEntry(import.meta.url, 'document-host'),
      config: {},
      // Rendering is one synchronous stretch: nothing to stop half way.
      abort: 'kill',
      idleMs: 5 * 60_000,
      loadTimeoutMs: 60_000,
      words: { stopped: 'the document process stopped', failed: 'the document could not be made', cancelled: 'Making the document was cancelled.' },
    }) as Promise<Host<unknown, DocumentTask, DocumentResult>>,
});

/** The file of a Markdown, DOCX or PDF export, made off this thread. */
export async function renderOffThread(format: RenderedFormat, doc: ExportDocument): Promise<Buffer> {
  const result = await pool.run({ kind: 'render', format, doc });
  if (result.kind !== 'rendered') throw new Error(`the document process answered a ${result.kind} result to a render`);
  // The bytes arrive as a Uint8Array (structured clone); a Buffer over the same memory, not a copy.
  return Buffer.from(result.body.buffer, result.body.byteOffset, result.body.byteLength);
}

/** parseTranscriptFile, run off this thread, then the vocabulary's near-misses corrected as after a transcription. */
export async function parseTranscriptOffThread(fileName: string, content: string, vocabulary: readonly string[] = []): Promise<TranscriptParse> {
  const result = await pool.run({ kind: 'parse-transcript', fileName, content, vocabulary });
  if (result.kind !== 'parsed') throw new Error(`the document process answered a ${result.kind} result to a transcript`);
  return result.outcome;
}
