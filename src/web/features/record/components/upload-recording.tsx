import { UploadIcon } from 'lucide-react';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { Upload } from 'tus-js-client';
import { UNTITLED_MEETING, type RecordingOptions } from '#shared/contracts/meetings.ts';
import { UPLOADS_PATH } from '#shared/contracts/uploads.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { FormError } from '#web/components/ui/form-error.tsx';
import { Progress } from '#web/components/ui/progress.tsx';
import { uploadErrorMessage } from '../capture/chunk-uploader.ts';
import { getAccessToken } from '#web/lib/auth/access-token.ts';
import { paths } from '#web/app/paths.ts';
import { createMeeting } from '../api.ts';

const ACCEPT = '.mp3,.m4a,.wav,.webm,.ogg,.opus,.mp4,.aac,audio/*';

/**
 * Import an existing recording: it takes the same resumable path as a live one. Once it is stored
 * the meeting's page opens, where its transcription's progress shows (as an imported transcript's does).
 */
export function UploadRecording({
  title,
  options,
  teamId,
  onUploaded,
  disabled,
}: {
  title: string;
  options: RecordingOptions;
  /** Auto-Share's team: the meeting is shared with it from the start. */
  teamId?: string | undefined;
  onUploaded: () => void;
  disabled?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const upload = async (file: File) => {
    setError(null);
    setProgress(0);
    try {
      const meeting = await createMeeting({
        title: title.trim() || file.name.replace(/\.[^.]+$/, ''),
        source: 'upload',
        options,
        ...(teamId ? { teamId } : {}),
      });
      await new Promise<void>((resolve, reject) => {
        const u = new Upload(file, {
          endpoint: UPLOADS_PATH,
          metadata: { meetingId: meeting.id, filetype: file.type || guessType(file.name), filename: file.name },
          chunkSize: 8 * 1024 * 1024,
          retryDelays: [0, 1000, 3000, 5000, 10_000, 20_000],
          onBeforeRequest: async (req) => {
            const token = await getAccessToken();
            if (token) req.setHeader('Authorization', `Bearer ${token}`);
          },
          onProgress: (sent, total) => setProgress(total > 0 ? Math.round((sent / total) * 100) : 0),
          onSuccess: () => resolve(),
          onError: (e) => reject(new Error(uploadErrorMessage(e))),
        });
        u.start();
      });
      toast.success('Meeting saved', { description: meeting.title || UNTITLED_MEETING });
      onUploaded();
      void navigate(paths.meeting.href(meeting.id));
    } catch (e) {
      const message = e instanceof Error ? e.message : 'The upload failed.';
      setError(message);
      toast.error(message);
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Import a recording</CardTitle>
        <CardDescription>mp3, m4a, wav, webm, ogg or mp4 audio.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <input
          ref={input}
          type="file"
          accept={ACCEPT}
          className="sr-only"
          id="import-recording"
          aria-label="Recording file"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void upload(file);
          }}
        />
        <Button variant="outline" disabled={disabled || progress !== null} onClick={() => input.current?.click()}>
          <UploadIcon /> {progress === null ? 'Choose a file' : `Uploading… ${progress}%`}
        </Button>
        {progress !== null && <Progress value={progress} aria-label="Upload progress" />}
        <FormError>{error}</FormError>
      </CardContent>
    </Card>
  );
}

/** Some systems give no MIME type for audio files; the extension then decides. */
function guessType(name: string): string {
  const extension = name.split('.').pop()?.toLowerCase() ?? '';
  const types: Record<string, string> = {
    mp3: 'audio/mpeg',
    m4a: 'audio/mp4',
    wav: 'audio/wav',
    webm: 'audio/webm',
    ogg: 'audio/ogg',
    opus: 'audio/ogg',
    mp4: 'video/mp4',
    aac: 'audio/aac',
  };
  return types[extension] ?? 'application/octet-stream';
}
