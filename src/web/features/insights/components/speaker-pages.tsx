import { ChevronLeftIcon, ChevronRightIcon } from 'lucide-react';
import { useState } from 'react';
import { totalPages } from '#web/components/pagination.tsx';
import { Button } from '#web/components/ui/button.tsx';

/** Speakers per page of a chart or list: each keeps its name beside it and the card a readable height. */
export const SPEAKERS_PAGE_SIZE = 10;

/**
 * Every speaker, a page at a time (Insights once stopped at 12 and said nothing of the rest): the
 * page shown, and where it sits ("1–10 of 14") for the nav and for a chart's label.
 */
export function useSpeakerPages<T>(speakers: T[]): { shown: T[]; range: string; current: number; pages: number; setPage: (page: number) => void } {
  const [page, setPage] = useState(1);
  const pages = totalPages(speakers.length, SPEAKERS_PAGE_SIZE);
  const current = Math.min(page, pages);
  const first = (current - 1) * SPEAKERS_PAGE_SIZE;
  const shown = speakers.slice(first, first + SPEAKERS_PAGE_SIZE);
  return { shown, range: `${first + 1}–${first + shown.length} of ${speakers.length}`, current, pages, setPage };
}

/** Previous and Next between pages of speakers, and which are shown; nothing when one page holds them all. */
export function SpeakerPagesNav({ label, pages: { current, pages, range, setPage } }: { label: string; pages: ReturnType<typeof useSpeakerPages> }) {
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-2 px-6">
      <Button variant="outline" size="sm" disabled={current === 1} onClick={() => setPage(current - 1)}>
        <ChevronLeftIcon aria-hidden="true" />
        Previous
      </Button>
      <p className="text-sm text-muted-foreground" aria-live="polite">
        Speakers {range}
      </p>
      <Button variant="outline" size="sm" disabled={current === pages} onClick={() => setPage(current + 1)}>
        Next
        <ChevronRightIcon aria-hidden="true" />
      </Button>
    </nav>
  );
}
