import { describe, expect, it, vi } from 'vitest';
import { download, requestPath } from '#web/lib/api-client.ts';
import { fetchMeetingFile, fetchRecording } from './downloads.ts';

vi.mock('#web/lib/api-client.ts', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  download: vi.fn(async () => ({ blob: new Blob([]), fileName: undefined })),
}));

describe('fetchMeetingFile', () => {
  it('points transcripts at the export route, the audio download at its route and the player at the recording', async () => {
    await fetchMeetingFile('m1', 'srt');
    await fetchMeetingFile('m1', 'audio');
    await fetchRecording('m1');
    const paths = vi.mocked(download).mock.calls.map(([endpoint, input]) => requestPath(endpoint, input));
    expect(paths).toEqual(['/api/v1/meetings/m1/export?format=srt', '/api/v1/meetings/m1/audio/download', '/api/v1/meetings/m1/audio']);
  });
});
