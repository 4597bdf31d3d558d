import { ListChecksIcon } from 'lucide-react';
import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { Pagination, totalPages } from '#web/components/pagination.tsx';
import { QueryError } from '#web/components/query-error.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { useActionItems } from '../api.ts';
import { ActionItemRow } from './action-item-row.tsx';
import { ListSkeleton } from './list-skeleton.tsx';
import { statusLabel, TrackerFilters } from './tracker-filters.tsx';
import { DEFAULT_TRACKER_STATUS, readTrackerParams, toActionItemsQuery, TRACKER_PAGE_SIZE, writeTrackerParams, type TrackerParams } from './tracker-params.ts';

/**
 * /insights › Action Items: every action item of the person's meetings, filtered by status, owner
 * and meeting (all in the URL), ticked done from the list, with later meetings' mentions to answer.
 */
export function ActionItemTracker() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = useMemo(() => readTrackerParams(searchParams), [searchParams]);
  const { data, isPending, isError, error, refetch, isFetching, isPlaceholderData } = useActionItems(toActionItemsQuery(params));

  /** A new filter starts again at page 1. */
  const update = useCallback(
    (changes: Partial<TrackerParams>, options: { replace?: boolean } = {}) =>
      setSearchParams((current) => writeTrackerParams(current, { ...readTrackerParams(current), page: 1, ...changes }), { replace: options.replace ?? false }),
    [setSearchParams],
  );
  const pages = data ? totalPages(data.total, TRACKER_PAGE_SIZE) : 1;
  // Past the last page (its last item was just ticked done, or an old link): show the last one.
  useEffect(() => {
    if (data && !isPlaceholderData && params.page > pages) update({ page: pages }, { replace: true });
  }, [data, isPlaceholderData, params.page, pages, update]);

  const filtered = params.owner !== undefined || params.meeting !== undefined;
  const clear = () => update({ status: DEFAULT_TRACKER_STATUS, owner: undefined, meeting: undefined });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Action Items</CardTitle>
        <CardDescription>Every action item from your meetings, newest meeting first. Tick one to mark it done.</CardDescription>
      </CardHeader>
      <CardContent>
        <TrackerFilters params={params} data={data} onChange={update} />
        {isPending ? (
          <ListSkeleton label="Loading action items" />
        ) : isError && !data ? (
          <QueryError error={error} retry={refetch} retrying={isFetching} title="Action items could not be loaded." />
        ) : data.items.length === 0 ? (
          <NoItems
            params={params}
            hasAny={data.counts.open + data.counts.done + data.counts.dismissed > 0 || filtered}
            canClear={filtered || params.status !== DEFAULT_TRACKER_STATUS}
            onClear={clear}
          />
        ) : (
          <>
            <p className="mb-3 text-sm text-muted-foreground" aria-live="polite">
              {data.total === 1 ? '1 action item' : `${data.total} action items`}
              {pages > 1 && ` · page ${Math.min(params.page, pages)} of ${pages}`}
            </p>
            <ul
              className={`divide-y transition-opacity ${isPlaceholderData && isFetching ? 'opacity-60' : ''}`}
              aria-label="Action items"
              aria-busy={isFetching}
            >
              {data.items.map((item) => (
                <ActionItemRow key={item.id} item={item} />
              ))}
            </ul>
            {pages > 1 && (
              <Pagination
                page={Math.min(params.page, pages)}
                pages={pages}
                hrefFor={(page) => `?${writeTrackerParams(searchParams, { ...params, page }).toString()}`}
              />
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

type NoItemsProps = { params: TrackerParams; hasAny: boolean; canClear: boolean; onClear: () => void };

/** Nothing at all yet, or nothing under these filters (the other statuses still hold some). */
function NoItems({ params, hasAny, canClear, onClear }: NoItemsProps) {
  return (
    <div className="py-10 text-center">
      <ListChecksIcon className="mx-auto mb-3 size-8 text-muted-foreground" aria-hidden="true" />
      {hasAny ? (
        <>
          <p className="font-medium">
            {params.status === 'all' ? 'No action items match these filters.' : `No ${statusLabel(params.status).toLowerCase()} action items.`}
          </p>
          {canClear && (
            <Button variant="outline" className="mt-4" onClick={onClear}>
              Clear filters
            </Button>
          )}
        </>
      ) : (
        <>
          <p className="font-medium">No action items yet</p>
          <p className="mt-1 text-sm text-muted-foreground">Action items found in your meetings appear here with who owns them and when they are due.</p>
        </>
      )}
    </div>
  );
}
