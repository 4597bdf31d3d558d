import { useQuery } from '@tanstack/react-query';
import { CalendarIcon, ClockIcon, LinkIcon, UsersIcon } from 'lucide-react';
import { Link, useParams } from 'react-router';
import type { SharedMeeting } from '#shared/contracts/sharing.ts';
import { MAIN_CONTENT_ID } from '#web/components/layout/skip-link.tsx';
import { Logo } from '#web/components/logo.tsx';
import { QueryError } from '#web/components/query-error.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { CitedSentences } from '#web/components/cited-sentences.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { formatClock, formatDate, formatDuration } from '#web/lib/format.ts';
import { isGoneLink, sharedMeetingOptions } from './api.ts';
import { lineAnchor, MomentLink, SharedNotes } from './shared-notes.tsx';
import { paths } from '#web/app/paths.ts';

/**
 * /shared/:token: the public, read-only view of a shared meeting. No sign-in, no app shell: what
 * the person who shared it chose to show (summary, notes, transcript) and nothing else.
 */
export function SharedMeetingPage() {
  const { token = '' } = useParams();
  const { data, isPending, isError, error, refetch } = useQuery(sharedMeetingOptions(token));
  return (
    <div className="min-h-svh bg-muted/30">
      {/* A shared meeting is private to whoever holds the link: keep it out of search engines. */}
      <meta name="robots" content="noindex, nofollow" />
      <title>{data ? `${data.title} · Parley` : 'Shared meeting · Parley'}</title>
      <header className="border-b bg-background">
        <div className="mx-auto flex max-w-4xl items-center justify-between px-4 py-3">
          <Link to={paths.home.href()} aria-label="Parley home">
            <Logo size="sm" />
          </Link>
          <Badge variant="outline">
            <LinkIcon aria-hidden="true" /> Shared meeting · read-only
          </Badge>
        </div>
      </header>
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="mx-auto max-w-4xl px-4 py-8 outline-none">
        {isPending ? (
          <LoadingView />
        ) : isError ? (
          isGoneLink(error) ? (
            <Unavailable />
          ) : (
            <QueryError error={error} retry={refetch} title="This meeting could not be loaded." />
          )
        ) : (
          <MeetingView meeting={data} />
        )}
      </main>
    </div>
  );
}

function Unavailable() {
  return (
    <Card>
      <CardContent className="py-12 text-center">
        <h1 className="text-xl font-semibold">This link is no longer available</h1>
        <p className="mx-auto mt-2 max-w-md text-muted-foreground">
          The person who shared this meeting has revoked the link, the meeting was deleted, or the link never existed. Ask them for a new link.
        </p>
        <Button className="mt-6" asChild>
          <Link to={paths.home.href()}>Go to Parley</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

function MeetingView({ meeting }: { meeting: SharedMeeting }) {
  const names = new Map(meeting.speakers.map((s) => [s.id, s.displayName ?? s.label]));
  return (
    <article className="grid gap-6" aria-labelledby="shared-title">
      <div>
        <h1 id="shared-title" className="text-2xl font-bold tracking-tight md:text-3xl">
          {meeting.title}
        </h1>
        <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
          <span className="flex items-center gap-1.5">
            <CalendarIcon className="size-4" aria-hidden="true" />
            <time dateTime={meeting.startedAt}>{formatDate(meeting.startedAt)}</time>
          </span>
          <span className="flex items-center gap-1.5">
            <ClockIcon className="size-4" aria-hidden="true" />
            {formatDuration(meeting.durationSeconds)}
          </span>
          {meeting.participants.length > 0 && (
            <span className="flex items-center gap-1.5">
              <UsersIcon className="size-4" aria-hidden="true" />
              <span className="sr-only">Participants: </span>
              {meeting.participants.join(', ')}
            </span>
          )}
        </div>
      </div>

      {meeting.summary && (
        <Card>
          <CardHeader>
            <CardTitle>
              <h2>Summary</h2>
            </CardTitle>
          </CardHeader>
          <CardContent>
            <p className="leading-relaxed">
              {meeting.summarySentences ? (
                <CitedSentences
                  sentences={meeting.summarySentences}
                  time={(sentence, time) => (
                    <MomentLink segmentId={sentence.segmentIds[0]!} time={time}>
                      {time}
                    </MomentLink>
                  )}
                />
              ) : (
                meeting.summary
              )}
            </p>
          </CardContent>
        </Card>
      )}

      <SharedNotes insights={meeting.insights} status={meeting.notes.status} />

      <Card>
        <CardHeader>
          <CardTitle>
            <h2>Transcript</h2>
          </CardTitle>
        </CardHeader>
        <CardContent>
          {meeting.segments.length === 0 ? (
            <p className="text-muted-foreground">There is no transcript for this meeting yet.</p>
          ) : (
            <ol className="grid gap-3" aria-label="Transcript">
              {meeting.segments.map((segment) => (
                <li
                  key={segment.id}
                  id={lineAnchor(segment.id)}
                  className="grid scroll-mt-4 grid-cols-[3.5rem_1fr] gap-2 rounded-sm text-sm target:bg-primary/10"
                >
                  <span className="font-mono text-xs leading-5 text-muted-foreground">{formatClock(segment.startMs / 1000)}</span>
                  <p>
                    {segment.speakerId && <span className="font-semibold">{names.get(segment.speakerId) ?? 'Speaker'}: </span>}
                    {segment.text}
                  </p>
                </li>
              ))}
            </ol>
          )}
        </CardContent>
      </Card>
      <p className="text-center text-xs text-muted-foreground">
        Recorded and transcribed with{' '}
        <Link to={paths.home.href()} className="underline underline-offset-2">
          Parley
        </Link>
        .
      </p>
    </article>
  );
}

function LoadingView() {
  return (
    <div className="grid gap-6" aria-busy="true" aria-label="Loading meeting">
      <Skeleton className="h-9 w-2/3" />
      <Skeleton className="h-4 w-1/2" />
      <Skeleton className="h-32" />
      <Skeleton className="h-64" />
    </div>
  );
}
