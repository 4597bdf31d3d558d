import { meetingEndpoints, type ExportFormat } from '#shared/contracts/meetings.ts';
import { download, type DownloadedFile, type RequestOptions } from '#web/lib/api-client.ts';
import { saveBlob } from '#web/lib/download-file.ts';

export type DownloadKind = ExportFormat | 'audio';

/** A meeting as a file: transcripts come from the export route, the recording from the audio route. */
export function fetchMeetingFile(meetingId: string, kind: DownloadKind, options?: RequestOptions): Promise<DownloadedFile> {
  const params = { id: meetingId };
  return kind === 'audio'
    ? download(meetingEndpoints.audio, { params }, options)
    : download(meetingEndpoints.export, { params, query: { format: kind } }, options);
}

/** Saves a transcript or the recording under the server's file name (else `fallbackName`). */
export async function downloadMeetingFile(meetingId: string, kind: DownloadKind, fallbackName: string): Promise<void> {
  const file = await fetchMeetingFile(meetingId, kind);
  saveBlob(file.blob, file.fileName ?? fallbackName);
}
