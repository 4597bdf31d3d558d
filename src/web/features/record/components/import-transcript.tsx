import { FileTextIcon } from 'lucide-react';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { MAX_TRANSCRIPT_IMPORT_BYTES, TRANSCRIPT_IMPORT_EXTENSIONS, TRANSCRIPT_TOO_LARGE_MESSAGE, UNTITLED_MEETING } from '#shared/contracts/meetings.ts';
import { paths } from '#web/app/paths.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { FormError } from '#web/components/ui/form-error.tsx';
import { importTranscript } from '../api.ts';

const ACCEPT = [...TRANSCRIPT_IMPORT_EXTENSIONS, 'text/vtt', 'application/x-subrip', 'text/plain'].join(',');

/**
 * Import a transcript another tool made (Zoom, Teams, Meet, Otter): the file is read here and sent
 * as text; the server makes the meeting, names its speakers from the file and writes its notes.
 * A file it cannot read comes back with the line to fix, shown under the button.
 */
export function ImportTranscript({
  title,
  teamId,
  onImported,
  disabled,
}: {
  title: string;
  /** Auto-Share's team: the meeting is shared with it from the start. */
  teamId?: string | undefined;
  onImported: () => void;
  disabled?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const importFile = async (file: File) => {
    setError(null);
    if (file.size > MAX_TRANSCRIPT_IMPORT_BYTES) {
      setError(TRANSCRIPT_TOO_LARGE_MESSAGE);
      return;
    }
    setBusy(true);
    try {
      const meeting = await importTranscript({
        fileName: file.name,
        content: await file.text(),
        ...(title.trim() ? { title: title.trim() } : {}),
        ...(teamId ? { teamId } : {}),
      });
      toast.success('Meeting saved', { description: meeting.title || UNTITLED_MEETING });
      onImported();
      void navigate(paths.meeting.href(meeting.id));
    } catch (e) {
      const message = e instanceof Error ? e.message : 'The transcript could not be imported.';
      setError(message);
      toast.error(message);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Import a transcript</CardTitle>
        <CardDescription>WebVTT (.vtt), SubRip (.srt) or plain text (.txt) from Zoom, Teams, Meet or Otter, with the speakers' names.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <input
          ref={input}
          type="file"
          accept={ACCEPT}
          className="sr-only"
          id="import-transcript"
          aria-label="Transcript file"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void importFile(file);
          }}
        />
        <Button variant="outline" disabled={disabled || busy} aria-busy={busy} onClick={() => input.current?.click()}>
          <FileTextIcon /> {busy ? 'Importing…' : 'Choose a transcript'}
        </Button>
        <FormError>{error}</FormError>
      </CardContent>
    </Card>
  );
}
