import type { ExportFormat, MeetingDetail } from '#shared/contracts/meetings.ts';
import { toExportDocument } from './export-document.ts';
import { renderOffThread } from './document-work.ts';
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

/** A meeting (its facts, notes and transcript; captions: the transcript only) as a file in the requested format, its times in `timeZone`. */
export async function exportMeeting(meeting: MeetingDetail, format: ExportFormat, timeZone: string): Promise<ExportFile> {
  const doc = toExportDocument(meeting, timeZone);
  const body = await (async () => {
    switch (format) {
      // Plain text is a few milliseconds for two hours of talk: less than the trip to another process.
      case 'txt':
        return Buffer.from(renderTxt(doc), 'utf8');
      case 'srt':
        return Buffer.from(renderSrt(doc), 'utf8');
      case 'vtt':
        return Buffer.from(renderVtt(doc), 'utf8');
      // Syntax trees, layout and compression: long enough to hold up every other request (document-work.ts).
      case 'md':
      case 'docx':
      case 'pdf':
        return renderOffThread(format, doc);
    }
  })();
  return { body, contentType: CONTENT_TYPES[format], extension: format };
}
