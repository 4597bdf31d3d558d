import { Link } from 'react-router';
import type { SearchMatch } from '#shared/contracts/meetings.ts';
import { paths } from '#web/app/paths.ts';
import { formatClock } from '#web/lib/format.ts';

const KIND_LABELS: Record<Exclude<SearchMatch['kind'], 'transcript'>, string> = {
  summary: 'Summary',
  action_item: 'Action item',
  decision: 'Decision',
};

/** Who said it and when: "Priya Raman · 01:05"; a note says what it is ("Action item · Priya Raman · 00:07"). */
export function matchLabel(match: SearchMatch): string {
  const parts = match.kind === 'transcript' ? [match.speaker ?? 'Unknown speaker'] : [KIND_LABELS[match.kind], ...(match.speaker ? [match.speaker] : [])];
  if (match.startMs !== null) parts.push(formatClock(match.startMs / 1000));
  return parts.join(' · ');
}

/**
 * Why a meeting matched a search (issue 14): its passages with the searched words marked, each
 * with its speaker and moment; a click opens the meeting there (the summary opens it at the start).
 */
export function SearchMatches({ meetingId, title, matches }: { meetingId: string; title: string; matches: SearchMatch[] }) {
  if (matches.length === 0) return null;
  return (
    <ul className="grid gap-1.5" aria-label={`Matches in ${title}`}>
      {matches.map((match, i) => (
        <li key={`${match.kind}-${match.segmentId ?? i}-${match.startMs ?? ''}`}>
          <Link
            to={paths.meeting.href(meetingId, match.startMs === null ? undefined : { t: match.startMs })}
            className="block rounded-md border px-2.5 py-1.5 transition-colors hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            <span className="block text-xs text-muted-foreground">{matchLabel(match)}</span>
            <span className="line-clamp-2">
              {match.snippet.map((part, j) =>
                part.match ? (
                  <mark key={j} className="rounded-sm bg-primary/15 px-0.5 font-medium text-foreground">
                    {part.text}
                  </mark>
                ) : (
                  <span key={j}>{part.text}</span>
                ),
              )}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
