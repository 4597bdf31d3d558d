import { toast } from '#web/lib/toast.ts';
import { Button } from '#web/components/ui/button.tsx';
import { FormError } from '#web/components/ui/form-error.tsx';
import { Progress } from '#web/components/ui/progress.tsx';
import { ApiError } from '#web/lib/api-error.ts';
import { downloadDataExport, useLatestDataExport, useRequestDataExport } from '../api.ts';
import { SETTINGS_MESSAGES } from '../settings-messages.ts';

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/**
 * Privacy › "Request Data Export": one zip of everything of the person (account, settings,
 * meetings with transcripts and notes, recordings), built in the background; its progress shows
 * here live, an email says when it is ready, and it can be downloaded for 7 days.
 */
export function DataExportSection() {
  const latest = useLatestDataExport();
  const request = useRequestDataExport();
  const current = latest.data ?? null;
  const underWay = current?.status === 'queued' || current?.status === 'running';

  const onRequest = () =>
    request.mutate(undefined, {
      onSuccess: () => toast.success(SETTINGS_MESSAGES.exportRequested, { description: SETTINGS_MESSAGES.exportRequestedDescription }),
      onError: (error) => toast.error(SETTINGS_MESSAGES.exportFailed, { description: error instanceof ApiError ? error.message : undefined }),
    });

  const onDownload = async (id: string) => {
    try {
      await downloadDataExport(id);
    } catch (error) {
      toast.error(SETTINGS_MESSAGES.exportDownloadFailed, { description: error instanceof ApiError ? error.message : undefined });
    }
  };

  return (
    <div className="grid gap-3" aria-label="Data export" role="group">
      <div>
        <Button variant="outline" onClick={onRequest} disabled={underWay || request.isPending}>
          Request Data Export
        </Button>
      </div>
      {current?.status === 'queued' && (
        <p role="status" className="text-sm text-muted-foreground">
          Your export is waiting to start.
        </p>
      )}
      {current?.status === 'running' && (
        <div role="status" className="grid gap-2 text-sm text-muted-foreground">
          <p>Preparing your export… {Math.round((current.progress ?? 0) * 100)}%</p>
          <Progress value={Math.round((current.progress ?? 0) * 100)} aria-label="Export progress" />
        </div>
      )}
      {current?.status === 'ready' && (
        <div role="status" className="flex flex-wrap items-center gap-3 text-sm">
          <p className="text-muted-foreground">
            Your export is ready ({megabytes(current.bytes ?? 0)}). You can download it until {new Date(current.expiresAt ?? '').toLocaleDateString()}.
          </p>
          <Button size="sm" onClick={() => void onDownload(current.id)}>
            Download Export
          </Button>
        </div>
      )}
      {current?.status === 'failed' && <FormError>{current.failureReason ?? SETTINGS_MESSAGES.exportFailed} Request it again to retry.</FormError>}
    </div>
  );
}
