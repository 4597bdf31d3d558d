import type { ExportFormat } from '#shared/contracts/meetings.ts';
import type { ApiErrorBody } from '#shared/errors.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { loadSupabase } from '#web/lib/supabase.ts';

/**
 * Downloads go through fetch, not a plain link, because the API needs the bearer token that only
 * JavaScript holds; the answer is saved from a Blob through a temporary object URL.
 */
export type DownloadKind = ExportFormat | 'audio';

export const downloadPath = (meetingId: string, kind: DownloadKind): string =>
  kind === 'audio' ? `/meetings/${meetingId}/audio` : `/meetings/${meetingId}/export?format=${kind}`;

/** The file name from Content-Disposition, preferring RFC 8187 `filename*` (UTF-8) over `filename`. */
export function fileNameFrom(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // A malformed encoding: fall through to the plain name.
    }
  }
  return /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header)?.[1]?.replace(/\\(.)/g, '$1') ?? /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1];
}

export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers; a minute is plenty to start it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export async function downloadMeetingFile(meetingId: string, kind: DownloadKind, fallbackName: string): Promise<void> {
  const { data } = await (await loadSupabase()).auth.getSession();
  const token = data.session?.access_token;
  let response: Response;
  try {
    response = await fetch(`/api/v1${downloadPath(meetingId, kind)}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  } catch {
    throw new ApiError(0, 'NETWORK', 'Parley cannot reach its server. Check your connection and try again.');
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => undefined)) as Partial<ApiErrorBody> | undefined;
    throw new ApiError(response.status, body?.error?.code ?? 'UNKNOWN', body?.error?.message ?? `Download failed (${response.status})`);
  }
  saveBlob(await response.blob(), fileNameFrom(response.headers.get('content-disposition')) ?? fallbackName);
}
