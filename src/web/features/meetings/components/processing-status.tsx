import { RotateCwIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { MeetingProcessing, MeetingSummary } from '#shared/contracts/meetings.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Progress } from '#web/components/ui/progress.tsx';
import { ApiError } from '#web/lib/api-error.ts';
import { paths } from '#web/app/paths.ts';
import { useMeetingProgress } from '#web/lib/realtime/use-realtime.ts';
import { useRetryTranscription } from '../api.ts';
import { transcriptionText } from '../progress-text.ts';

/** "Transcribing… 40%" while a meeting is processed (the words of progress-text.ts). */
export function stageText(stage: MeetingProcessing['stage'], progress: number | null): string {
  return transcriptionText({ stage, progress }, Date.now());
}

/**
 * The stage in words. Mounted afresh for each retry (keyed by its retryAt), it counts the wait down
 * a second at a time until the retry is due.
 */
function StageLine({ shown }: { shown: MeetingProcessing }) {
  const [now, setNow] = useState(() => Date.now());
  const { retryAt } = shown;
  useEffect(() => {
    if (!retryAt) return;
    const due = Date.parse(retryAt);
    const timer = window.setInterval(() => {
      setNow(Date.now());
      if (Date.now() >= due) window.clearInterval(timer);
    }, 1000);
    return () => window.clearInterval(timer);
  }, [retryAt]);
  return <span>{transcriptionText(shown, now)}</span>;
}

type ProcessingMeeting = Pick<MeetingSummary, 'id' | 'status' | 'processing' | 'failureReason' | 'hasAudio'>;

/**
 * The processing or failure line of a meeting, with live progress and a Retry button. Until the
 * socket brings news, the stage and progress the server gave with the meeting are shown, so a page
 * opened in the middle of a job says where it is.
 */
export function ProcessingStatus({
  meeting,
  compact = false,
  canRetry = true,
}: {
  meeting: ProcessingMeeting;
  compact?: boolean;
  /** A teammate's meeting: its owner alone retries, so its readers see the failure without the button. */
  canRetry?: boolean;
}) {
  const { status } = meeting;
  const live = useMeetingProgress(meeting.id);
  const retry = useRetryTranscription(meeting.id);
  // The live event wins while it is about the current state; the stored status is the truth otherwise.
  const current = live && (live.status === status || status === 'processing') ? live : undefined;
  const effective = current?.status ?? status;
  if (effective === 'processing') {
    const shown: MeetingProcessing = current ?? meeting.processing ?? { stage: null, progress: null };
    const { progress } = shown;
    return (
      <div role="status" className={compact ? 'grid gap-1.5 text-xs text-muted-foreground' : 'grid gap-2 rounded-md border bg-muted/40 p-3 text-sm'}>
        <StageLine key={shown.retryAt ?? ''} shown={shown} />
        {progress !== null && progress > 0 && <Progress value={Math.round(progress * 100)} aria-label="Transcription progress" className="h-1.5" />}
      </div>
    );
  }
  if (effective === 'failed') {
    const reason = current?.failureReason ?? meeting.failureReason ?? null;
    return (
      <div
        role="alert"
        className={
          compact
            ? 'grid gap-2 text-xs text-destructive'
            : 'flex flex-wrap items-center justify-between gap-3 rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm'
        }
      >
        <span>{reason ? `The transcript could not be made: ${reason}` : 'The transcript could not be made.'}</span>
        {/* Without stored audio (the upload itself was refused) there is nothing to try again. */}
        {meeting.hasAudio && canRetry && (
          <Button size="sm" variant="outline" disabled={retry.isPending} onClick={() => retry.mutate()}>
            <RotateCwIcon aria-hidden="true" />
            Retry
          </Button>
        )}
        {retry.error && (
          <p className={compact ? undefined : 'basis-full'}>
            {retry.error.message}
            {retry.error instanceof ApiError && retry.error.code === 'PLAN_LIMIT' && (
              <>
                {' '}
                <Link to={paths.settings.href('billing')} className="font-medium underline underline-offset-4">
                  Open Settings › Billing
                </Link>
              </>
            )}
          </p>
        )}
      </div>
    );
  }
  return null;
}
