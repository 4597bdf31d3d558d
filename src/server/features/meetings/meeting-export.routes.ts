import { meetingEndpoints } from '#shared/contracts/meetings.ts';
import { AppError, notFound } from '#server/lib/app-error.ts';
import type { BlobStore } from '#server/lib/blob-store.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller } from '../auth/api-guard.ts';
import { parseRange } from './byte-range.ts';
import { contentDisposition, safeFileStem } from './content-disposition.ts';
import { exportMeeting } from './meeting-export.ts';
import type { MeetingsService } from './meetings.service.ts';
import { presentMeeting } from './meetings.routes.ts';

type ExportRouteDeps = { meetings: MeetingsService; blobs: BlobStore } & Parameters<typeof presentMeeting>[1];

/**
 * Downloads of the caller's own meeting: its notes and transcript as a file (txt, md, docx, pdf; srt, vtt) and the
 * recording itself, with byte ranges so players can seek and large files can resume. Only the
 * owner's meeting is looked up, so another person's id is a 404.
 */
export function registerMeetingExportRoutes(route: Router, deps: ExportRouteDeps): void {
  const { meetings, blobs } = deps;

  route(meetingEndpoints.export, async (request, reply) => {
    const record = await meetings.get(caller(request).user.id, request.params.id);
    if (!record) throw notFound('Meeting');
    const meeting = await presentMeeting(record, deps);
    const file = await exportMeeting(meeting, request.query.format);
    return (
      reply
        .header('content-type', file.contentType)
        .header('content-disposition', contentDisposition(`${safeFileStem(meeting.title)}.${file.extension}`))
        // A transcript is personal: no shared cache may keep it.
        .header('cache-control', 'private, no-store')
        .send(file.body)
    );
  });

  route(meetingEndpoints.audio, async (request, reply) => {
    const meeting = await meetings.audio(caller(request).user.id, request.params.id);
    if (!meeting) throw notFound('Meeting');
    if (!meeting.key) throw new AppError('NOT_FOUND', 'This meeting has no audio recording');
    const key = meeting.key;
    if (!(await blobs.exists(key))) {
      request.log.error({ meetingId: request.params.id, key }, 'audio blob missing');
      throw new AppError('NOT_FOUND', 'The audio file of this meeting is missing');
    }
    const size = await blobs.size(key);
    // The key names an immutable blob; the size changes while a recording is still growing.
    const etag = `"${key.replace(/^.*\//, '').replace(/\..*$/, '')}-${size}"`;
    const ifRange = request.headers['if-range'];
    const range = ifRange === undefined || ifRange === etag ? parseRange(request.headers.range, size) : ({ kind: 'full' } as const);
    const extension = key.slice(key.lastIndexOf('.') + 1);

    void reply
      .header('accept-ranges', 'bytes')
      .header('etag', etag)
      .header('cache-control', 'private, no-cache')
      .header('content-disposition', contentDisposition(`${safeFileStem(meeting.title)}.${extension}`, 'inline'));
    if (range.kind === 'unsatisfiable') {
      return reply
        .status(416)
        .header('content-range', `bytes */${size}`)
        .send({ error: { code: 'VALIDATION_FAILED', message: `The requested range is outside the recording (${size} bytes)` } });
    }
    void reply.header('content-type', meeting.mime ?? 'application/octet-stream');
    if (range.kind === 'full') {
      return reply.header('content-length', size).send(blobs.createReadStream(key));
    }
    return reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
      .header('content-length', range.end - range.start + 1)
      .send(blobs.createReadStream(key, { start: range.start, end: range.end }));
  });
}
