import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '#web/components/ui/button.tsx';
import { getAccessToken } from '#web/lib/auth/access-token.ts';
import { useAuth } from '#web/lib/auth/use-auth.ts';
import { formatClock } from '#web/lib/format.ts';
import { startChunkUploader } from '../capture/chunk-uploader.ts';
import { markStopped, removeRecording, unfinishedRecordings, type StoredRecording } from '../capture/recording-store.ts';

/**
 * Recordings this browser still holds bytes of (a closed tab, a crash, an outage): offered for
 * upload when the person comes back, or discarded on request.
 */
export function UnfinishedRecordings({ exclude, onUploaded }: { exclude: string | undefined; onUploaded: () => void }) {
  const [items, setItems] = useState<StoredRecording[]>([]);
  const [busy, setBusy] = useState<string | null>(null);

  const ownerId = useAuth().user?.id;

  useEffect(() => {
    if (!ownerId) return;
    let active = true;
    void unfinishedRecordings(ownerId).then((found) => active && setItems(found.filter((r) => r.id !== exclude)));
    return () => {
      active = false;
    };
  }, [exclude, ownerId]);

  if (items.length === 0) return null;

  const resume = async (recording: StoredRecording) => {
    setBusy(recording.id);
    try {
      await markStopped(recording.id); // the recorder that made it is gone
      const uploader = startChunkUploader({
        recordingId: recording.id,
        meetingId: recording.meetingId,
        mimeType: recording.mimeType,
        getToken: getAccessToken,
      });
      uploader.notify();
      await uploader.finished;
      await removeRecording(recording.id);
      setItems((list) => list.filter((r) => r.id !== recording.id));
      toast.success('Meeting saved', { description: recording.title || 'Untitled Meeting' });
      onUploaded();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'The recording could not be uploaded.');
    } finally {
      setBusy(null);
    }
  };

  const discard = async (recording: StoredRecording) => {
    await removeRecording(recording.id);
    setItems((list) => list.filter((r) => r.id !== recording.id));
  };

  return (
    <div
      role="region"
      aria-label="Unfinished recordings"
      className="mb-6 grid gap-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm dark:bg-amber-950/30"
    >
      <p className="font-medium">This browser holds recordings that did not finish uploading.</p>
      {items.map((recording) => (
        <div key={recording.id} className="flex flex-wrap items-center justify-between gap-2">
          <span>
            {recording.title || 'Untitled Meeting'} · {formatClock(recording.durationSeconds)} · started {new Date(recording.startedAt).toLocaleString()}
          </span>
          <span className="flex gap-2">
            <Button size="sm" onClick={() => void resume(recording)} disabled={busy !== null}>
              {busy === recording.id ? 'Uploading…' : 'Resume upload'}
            </Button>
            <Button size="sm" variant="outline" onClick={() => void discard(recording)} disabled={busy !== null}>
              Discard
            </Button>
          </span>
        </div>
      ))}
    </div>
  );
}
