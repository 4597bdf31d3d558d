import type { FastifyReply, FastifyRequest } from 'fastify';
import { meetingEndpoints } from '#shared/contracts/meetings.ts';
import { AppError, notFound } from '#server/lib/app-error.ts';
import type { BlobStore } from '#server/lib/blob-store.ts';
import { AudioDecodeError } from '#server/lib/ffmpeg.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller } from '../auth/api-guard.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { parseRange } from './byte-range.ts';
import { contentDisposition, safeFileStem } from './content-disposition.ts';
import { exportMeeting } from './meeting-export.ts';
import type { MeetingsService } from './meetings.service.ts';
import { presentMeeting } from './meetings.routes.ts';

type ExportRouteDeps = { meetings: MeetingsService; blobs: BlobStore; settings: Pick<SettingsService, 'timeZoneOf' | 'audioFormat'> } & Parameters<
  typeof presentMeeting
>[1];

/**
 * Sends a stored file with byte ranges, so players can seek and large files can resume. The key
 * names an immutable blob; the size is in the ETag because a recording still being written grows.
 */
async function sendBlob(
  request: FastifyRequest,
  reply: FastifyReply,
  blobs: BlobStore,
  file: { key: string; mime: string; fileName: string; disposition: 'inline' | 'attachment' },
) {
  const { key } = file;
  const size = await blobs.size(key);
  const etag = `"${key.replace(/^.*\//, '').replace(/\..*$/, '')}-${key.slice(key.lastIndexOf('.') + 1)}-${size}"`;
  const ifRange = request.headers['if-range'];
  const range = ifRange === undefined || ifRange === etag ? parseRange(request.headers.range, size) : ({ kind: 'full' } as const);

  void reply
    .header('accept-ranges', 'bytes')
    .header('etag', etag)
    .header('cache-control', 'private, no-cache')
    .header('content-disposition', contentDisposition(file.fileName, file.disposition));
  if (range.kind === 'unsatisfiable') {
    return reply
      .status(416)
      .header('content-range', `bytes */${size}`)
      .send({ error: { code: 'VALIDATION_FAILED', message: `The requested range is outside the recording (${size} bytes)` } });
  }
  void reply.header('content-type', file.mime);
  if (range.kind === 'full') {
    return reply.header('content-length', size).send(blobs.createReadStream(key));
  }
  return reply
    .status(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
    .header('content-length', range.end - range.start + 1)
    .send(blobs.createReadStream(key, { start: range.start, end: range.end }));
}

/**
 * Downloads of the caller's own meeting: its notes and transcript as a file (txt, md, docx, pdf; srt, vtt), the
 * recording itself (the player), and the recording converted for download. Only the owner's meeting
 * is looked up, so another person's id is a 404.
 */
export function registerMeetingExportRoutes(route: Router, deps: ExportRouteDeps): void {
  const { meetings, blobs, settings } = deps;

  route(meetingEndpoints.export, async (request, reply) => {
    const userId = caller(request).user.id;
    const record = await meetings.get(userId, request.params.id);
    if (!record) throw notFound('Meeting');
    const [meeting, timeZone] = await Promise.all([presentMeeting(record, deps), settings.timeZoneOf(userId)]);
    const file = await exportMeeting(meeting, request.query.format, timeZone);
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
    const extension = key.slice(key.lastIndexOf('.') + 1);
    return sendBlob(request, reply, blobs, {
      key,
      mime: meeting.mime ?? 'application/octet-stream',
      fileName: `${safeFileStem(meeting.title)}.${extension}`,
      disposition: 'inline',
    });
  });

  route(meetingEndpoints.audioDownload, async (request, reply) => {
    const userId = caller(request).user.id;
    const format = request.query.format ?? (await settings.audioFormat(userId));
    let download: Awaited<ReturnType<MeetingsService['audioDownload']>>;
    try {
      download = await meetings.audioDownload(userId, request.params.id, format);
    } catch (error) {
      if (!(error instanceof AudioDecodeError)) throw error;
      // The recording was proven decodable when it was stored: this is the server's fault, not the person's.
      request.log.error({ err: error, meetingId: request.params.id, format }, 'recording could not be converted for download');
      throw new AppError('INTERNAL', `The recording could not be converted to ${format.toUpperCase()}.`);
    }
    if (!download) throw notFound('Meeting');
    if (!download.recordingKey) throw new AppError('NOT_FOUND', 'This meeting has no audio recording');
    if (!download.file) {
      request.log.error({ meetingId: request.params.id, key: download.recordingKey }, 'audio blob missing');
      throw new AppError('NOT_FOUND', 'The audio file of this meeting is missing');
    }
    return sendBlob(request, reply, blobs, {
      key: download.file.key,
      mime: download.file.mime,
      fileName: `${safeFileStem(download.title)}.${download.file.extension}`,
      disposition: 'attachment',
    });
  });
}
