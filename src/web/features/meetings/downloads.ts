import { meetingEndpoints, type ExportFormat } from '#shared/contracts/meetings.ts';
import { download, type DownloadedFile, type RequestOptions } from '#web/lib/api-client.ts';
import { saveBlob } from '#web/lib/download-file.ts';

export type DownloadKind = ExportFormat | 'audio';

/**
 * A meeting as a file: transcripts come from the export route; the recording ('audio') from its
 * download route, converted to the person's Settings › Recording › Default File Format.
 */
export function fetchMeetingFile(meetingId: string, kind: DownloadKind, options?: RequestOptions): Promise<DownloadedFile> {
  const params = { id: meetingId };
  return kind === 'audio'
    ? download(meetingEndpoints.audioDownload, { params, query: {} }, options)
    : download(meetingEndpoints.export, { params, query: { format: kind } }, options);
}

/** The recording as it was stored, for the player (no conversion to wait for). */
export function fetchRecording(meetingId: string, options?: RequestOptions): Promise<DownloadedFile> {
  return download(meetingEndpoints.audio, { params: { id: meetingId } }, options);
}

/** Saves a transcript or the recording under the server's file name (else `fallbackName`). */
export async function downloadMeetingFile(meetingId: string, kind: DownloadKind, fallbackName: string): Promise<void> {
  const file = await fetchMeetingFile(meetingId, kind);
  saveBlob(file.blob, file.fileName ?? fallbackName);
}
