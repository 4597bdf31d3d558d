/**
 * The host process of document-work.ts: renders exports (Markdown, DOCX, PDF) and reads imported
 * transcript files (with their custom vocabulary's near-misses corrected), away from the server's event loop. Built to dist/server/document-host.js.
 */
import { serveHost } from '#server/lib/child-host/serve-host.ts';
import { correctSegments } from '#server/lib/vocabulary-corrections.ts';
import type { DocumentResult, DocumentTask, RenderedFormat } from './document-work.ts';
import type { ExportDocument } from './export-document.ts';
import { renderDocx } from './export-docx.ts';
import { renderMarkdown } from './export-markdown.ts';
import { renderPdf } from './export-pdf.ts';
import { parseTranscriptFile } from './import/parse-transcript.ts';

const RENDERERS: Record<RenderedFormat, (doc: ExportDocument) => Promise<Buffer>> = {
  md: async (doc) => Buffer.from(renderMarkdown(doc), 'utf8'),
  docx: renderDocx,
  pdf: renderPdf,
};

serveHost<Record<string, never>, { ready: true }, DocumentTask, DocumentResult>({
  // pdfkit and docx load on the first document that needs them.
  load: () => ({ ready: true }),
  async run(task) {
    if (task.kind === 'parse-transcript') {
      const outcome = parseTranscriptFile(task.fileName, task.content);
      if (!outcome.ok || task.vocabulary.length === 0) return { kind: 'parsed', outcome };
      // The same corrections pass as a transcription's: what was written kept on each line, for Undo.
      const transcript = { ...outcome.value.transcript, segments: correctSegments(outcome.value.transcript.segments, task.vocabulary) };
      return { kind: 'parsed', outcome: { ok: true, value: { ...outcome.value, transcript } } };
    }
    return { kind: 'rendered', body: await RENDERERS[task.format](task.doc) };
  },
});
