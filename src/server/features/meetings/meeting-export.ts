import type { ExportFormat, MeetingDetail } from '#shared/contracts/meetings.ts';
import { toExportDocument } from './export-document.ts';
import { renderDocx } from './export-docx.ts';
import { renderMarkdown } from './export-markdown.ts';
import { renderPdf } from './export-pdf.ts';
import { renderSrt, renderTxt, renderVtt } from './export-text.ts';

export type ExportFile = { body: Buffer; contentType: string; extension: ExportFormat };

const CONTENT_TYPES: Record<ExportFormat, string> = {
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pdf: 'application/pdf',
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
};

/** A meeting (its facts, notes and transcript; captions: the transcript only) as a file in the requested format. */
export async function exportMeeting(meeting: MeetingDetail, format: ExportFormat): Promise<ExportFile> {
  const doc = toExportDocument(meeting);
  const body = await (async () => {
    switch (format) {
      case 'txt':
        return Buffer.from(renderTxt(doc), 'utf8');
      case 'md':
        return Buffer.from(renderMarkdown(doc), 'utf8');
      case 'srt':
        return Buffer.from(renderSrt(doc), 'utf8');
      case 'vtt':
        return Buffer.from(renderVtt(doc), 'utf8');
      case 'docx':
        return renderDocx(doc);
      case 'pdf':
        return renderPdf(doc);
    }
  })();
  return { body, contentType: CONTENT_TYPES[format], extension: format };
}
