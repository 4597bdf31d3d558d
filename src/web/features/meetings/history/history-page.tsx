import { SearchXIcon, XIcon } from 'lucide-react';
import { useCallback, useEffect, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '#web/components/layout/page-header.tsx';
import { Pagination, totalPages } from '#web/components/pagination.tsx';
import { QueryError } from '#web/components/query-error.tsx';
import { SearchBox } from '#web/components/search-box.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent } from '#web/components/ui/card.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { paths } from '#web/app/paths.ts';
import { useMeetings, useSamplesSettingUp } from '../api.ts';
import type { ShareDialogComponent } from '../components/share-dialog-slot.ts';
import { DateRangeFilter, rangeLabel } from './date-range-filter.tsx';
import { FiltersMenu } from './filters-menu.tsx';
import { clearFilters, hasFilters, readHistoryParams, toListQuery, writeHistoryParams, type HistoryParams } from './history-params.ts';
import { MeetingCard } from './meeting-card.tsx';
import { RemoveSamples } from '../components/remove-samples.tsx';
import { STATUS_LABELS } from '../components/status-badge.tsx';
import { AskBox } from '../ask/ask-box.tsx';

/**
 * /history (spec §2, issue 3): search, date range and filters over the person's own meetings, a
 * grid of cards with Download, Share and Delete, and pagination. All state lives in the URL.
 */
export function HistoryPage({ ShareDialog }: { ShareDialog: ShareDialogComponent }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = useMemo(() => readHistoryParams(searchParams), [searchParams]);
  const { data, isPending, isError, error, refetch, isPlaceholderData, isFetching } = useMeetings(toListQuery(params));

  /** Any change of what is listed starts again at page 1; typing replaces the history entry. */
  const update = useCallback(
    (changes: Partial<HistoryParams>, options: { replace?: boolean } = {}) =>
      setSearchParams((current) => writeHistoryParams({ ...readHistoryParams(current), page: 1, ...changes }), { replace: options.replace ?? false }),
    [setSearchParams],
  );
  const onSearch = useCallback((q: string) => update({ q }, { replace: true }), [update]);
  const hrefFor = (page: number) => `?${writeHistoryParams({ ...params, page }).toString()}`;

  const pages = data ? totalPages(data.total, params.pageSize) : 1;
  // A page past the end (the last meeting of the last page was deleted, or an old link): go to the last one.
  useEffect(() => {
    if (data && data.total > 0 && params.page > pages) update({ page: pages }, { replace: true });
  }, [data, params.page, pages, update]);

  const knownParticipants = useMemo(() => [...new Set(data?.items.flatMap((m) => m.participants) ?? [])].sort(), [data]);

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="Meeting History" description="Search, replay and share your past meetings." actions={<RemoveSamples />} />
      <AskBox />
      <div className="mb-4 flex flex-col gap-2 sm:flex-row" role="search">
        <SearchBox label="Search meetings" placeholder="Search titles, transcripts, speakers and notes..." value={params.q} onSearch={onSearch} />
        <div className="flex gap-2">
          <DateRangeFilter from={params.from} to={params.to} onChange={(range) => update({ from: range.from, to: range.to })} />
          <FiltersMenu
            status={params.status}
            participant={params.participant}
            knownParticipants={knownParticipants}
            onChange={(filters) => update({ status: filters.status, participant: filters.participant })}
          />
        </div>
      </div>
      <ActiveFilters params={params} onRemove={(changes) => update(changes)} onClearAll={() => setSearchParams(writeHistoryParams(clearFilters(params)))} />

      {isPending ? (
        <CardGridSkeleton />
      ) : isError && !data ? (
        <QueryError error={error} retry={refetch} title="Your meetings could not be loaded." />
      ) : data.total === 0 ? (
        <EmptyState filtered={hasFilters(params)} onClear={() => setSearchParams(writeHistoryParams(clearFilters(params)))} />
      ) : (
        <>
          <p className="mb-3 text-sm text-muted-foreground" aria-live="polite">
            {data.totalIsAtLeast ? `More than ${data.total.toLocaleString()} meetings` : data.total === 1 ? '1 meeting' : `${data.total} meetings`}
            {pages > 1 && ` · page ${Math.min(params.page, pages)} of ${pages}`}
          </p>
          <div
            className={`grid gap-4 transition-opacity sm:grid-cols-2 lg:grid-cols-3 ${isPlaceholderData && isFetching ? 'opacity-60' : ''}`}
            aria-busy={isFetching}
            aria-label="Meetings"
            role="list"
          >
            {data.items.map((meeting) => (
              <div role="listitem" key={meeting.id} className="grid">
                <MeetingCard meeting={meeting} ShareDialog={ShareDialog} />
              </div>
            ))}
          </div>
          <Pagination page={Math.min(params.page, pages)} pages={pages} hrefFor={hrefFor} />
        </>
      )}
    </div>
  );
}

function ActiveFilters({
  params,
  onRemove,
  onClearAll,
}: {
  params: HistoryParams;
  onRemove: (changes: Partial<HistoryParams>) => void;
  onClearAll: () => void;
}) {
  const chips: { label: string; clear: Partial<HistoryParams> }[] = [];
  if (params.q) chips.push({ label: `“${params.q}”`, clear: { q: '' } });
  if (params.from || params.to) chips.push({ label: rangeLabel(params), clear: { from: undefined, to: undefined } });
  if (params.status) chips.push({ label: STATUS_LABELS[params.status], clear: { status: undefined } });
  if (params.participant) chips.push({ label: params.participant, clear: { participant: undefined } });
  if (chips.length === 0) return null;
  return (
    <div className="mb-4 flex flex-wrap items-center gap-2" aria-label="Active filters">
      {chips.map((chip) => (
        <Button key={chip.label} variant="secondary" size="sm" onClick={() => onRemove(chip.clear)} aria-label={`Remove filter ${chip.label}`}>
          {chip.label}
          <XIcon aria-hidden="true" />
        </Button>
      ))}
      <Button variant="link" size="sm" onClick={onClearAll}>
        Clear all
      </Button>
    </div>
  );
}

function EmptyState({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  const samplesSettingUp = useSamplesSettingUp();
  return (
    <Card>
      <CardContent className="py-12 text-center">
        {samplesSettingUp && !filtered ? (
          <p role="status" className="text-muted-foreground">
            Setting up your sample meetings…
          </p>
        ) : filtered ? (
          <>
            <SearchXIcon className="mx-auto mb-3 size-8 text-muted-foreground" aria-hidden="true" />
            <p className="font-medium">No meetings found</p>
            <p className="mt-1 text-sm text-muted-foreground">Nothing matches this search and these filters.</p>
            <Button variant="outline" className="mt-4" onClick={onClear}>
              Clear filters
            </Button>
          </>
        ) : (
          <>
            <p className="text-muted-foreground">No meetings recorded yet.</p>
            <Button variant="link" asChild>
              <Link to={paths.record.href()}>Record your first meeting</Link>
            </Button>
          </>
        )}
      </CardContent>
    </Card>
  );
}

function CardGridSkeleton() {
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-busy="true" aria-label="Loading meetings">
      {Array.from({ length: 6 }, (_, i) => (
        <Card key={i} className="gap-4">
          <CardContent className="grid gap-3">
            <Skeleton className="h-5 w-3/4" />
            <Skeleton className="h-4 w-1/3" />
            <Skeleton className="h-4 w-1/2" />
            <Skeleton className="h-14" />
            <Skeleton className="h-9" />
          </CardContent>
        </Card>
      ))}
    </div>
  );
}
