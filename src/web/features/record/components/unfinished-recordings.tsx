import { useEffect, useState } from 'react';
import { toast } from '#web/lib/toast.ts';
import { Button } from '#web/components/ui/button.tsx';
import { getAccessToken } from '#web/lib/auth/access-token.ts';
import { useAuth } from '#web/lib/auth/use-auth.ts';
import { formatClock } from '#web/lib/format.ts';
import { startChunkUploader } from '../capture/chunk-uploader.ts';
import { markStopped, onRecordingsChanged, removeRecording, unfinishedRecordings, type StoredRecording } from '../capture/recording-store.ts';

/**
 * Recordings this browser still holds bytes of (a closed tab, a crash, an outage): offered for
 * upload when the person comes back, or discarded on request. One this page is uploading (the
 * recording just saved) is not listed; the list follows as uploads finish or give up.
 */
export function UnfinishedRecordings({ exclude, onUploaded }: { exclude: string | undefined; onUploaded: () => void }) {
  const [found, setFound] = useState<StoredRecording[]>([]);
  /** The recording being resumed here: its uploader holds it, so it is no longer among `found`, but stays listed while it uploads. */
  const [resuming, setResuming] = useState<StoredRecording | null>(null);
  const busy = resuming?.id ?? null;

  const ownerId = useAuth().user?.id;

  useEffect(() => {
    if (!ownerId) return;
    let active = true;
    // Each look supersedes the one before, so an older answer arriving late never wins.
    let latest = 0;
    const look = () => {
      const call = ++latest;
      void unfinishedRecordings(ownerId).then((list) => active && call === latest && setFound(list.filter((r) => r.id !== exclude)));
    };
    look();
    const unsubscribe = onRecordingsChanged(look);
    return () => {
      active = false;
      unsubscribe();
    };
  }, [exclude, ownerId]);

  const items = resuming ? [resuming, ...found.filter((r) => r.id !== resuming.id)] : found;
  if (items.length === 0) return null;

  const resume = async (recording: StoredRecording) => {
    setResuming(recording);
    try {
      await markStopped(recording.id); // the recorder that made it is gone
      const uploader = startChunkUploader({
        recordingId: recording.id,
        meetingId: recording.meetingId,
        mimeType: recording.mimeType,
        getToken: getAccessToken,
      });
      uploader.notify();
      await uploader.finished; // the server holds it (or said it already did): the local copy is gone
      toast.success('Meeting saved', { description: recording.title || 'Untitled Meeting' });
      onUploaded();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'The recording could not be uploaded.');
    } finally {
      setResuming(null);
    }
  };

  const discard = async (recording: StoredRecording) => {
    await removeRecording(recording.id);
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
