import { useQuery } from '@tanstack/react-query';
import { SparklesIcon } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '#web/app/paths.ts';
import { cn } from '#web/lib/utils.ts';
import { statusOptions } from './api.ts';

/** The meeting a notice is about: only a recording was transcribed by the server's engine (an imported transcript was not). */
export type BetterTranscriptsSubject = { hasAudio: boolean; isSample: boolean };

/**
 * On a meeting's page while the server transcribes with its basic offline engine (pocketsphinx):
 * which command gets better transcripts. Parley has no administrator role, and on a self-hosted
 * server the person reading is often the one who runs it, so the owner of a recording is told, with
 * the words saying who can act on it. Nothing once a better engine is in use, for samples, for
 * imported transcripts, or until the status has loaded (or if it cannot be read).
 */
export function BetterTranscriptsNotice({ meeting, className }: { meeting: BetterTranscriptsSubject; className?: string }) {
  // The engine changes rarely (a model fetched in the background): no polling as on /status.
  const status = useQuery({ ...statusOptions(), refetchInterval: false, staleTime: 5 * 60_000, enabled: meeting.hasAudio && !meeting.isSample });
  const command = status.data?.transcription.betterTranscripts;
  if (!meeting.hasAudio || meeting.isSample || !command) return null;
  return (
    <p role="note" aria-label="Better transcripts" className={cn('flex items-start gap-2 text-sm text-muted-foreground', className)}>
      <SparklesIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>
        This server transcribes with its basic offline engine. For better transcripts, whoever runs it can install the recommended speech model with{' '}
        <code className="font-mono text-foreground">{command}</code> (see{' '}
        <Link to={paths.status.href()} className="font-medium text-foreground underline underline-offset-4">
          Status
        </Link>
        ).
      </span>
    </p>
  );
}
