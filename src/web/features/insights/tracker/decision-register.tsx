import { LightbulbIcon, SearchXIcon } from 'lucide-react';
import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { Pagination, totalPages } from '#web/components/pagination.tsx';
import { QueryError } from '#web/components/query-error.tsx';
import { SearchBox } from '#web/components/search-box.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { useDecisions } from '../api.ts';
import { DecisionRow } from './decision-row.tsx';
import { ListSkeleton } from './list-skeleton.tsx';
import { readDecisionParams, toDecisionsQuery, TRACKER_PAGE_SIZE, writeDecisionParams, type DecisionParams } from './tracker-params.ts';

/** /insights › Decisions: every decision of the person's meetings, newest first, searchable (the search in the URL). */
export function DecisionRegister() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = useMemo(() => readDecisionParams(searchParams), [searchParams]);
  const { data, isPending, isError, error, refetch, isFetching, isPlaceholderData } = useDecisions(toDecisionsQuery(params));

  const update = useCallback(
    (changes: Partial<DecisionParams>, options: { replace?: boolean } = {}) =>
      setSearchParams((current) => writeDecisionParams(current, { ...readDecisionParams(current), page: 1, ...changes }), {
        replace: options.replace ?? false,
      }),
    [setSearchParams],
  );
  // Typing replaces the history entry: Back leaves the search instead of stepping through its words.
  const onSearch = useCallback((q: string) => update({ q }, { replace: true }), [update]);
  const pages = data ? totalPages(data.total, TRACKER_PAGE_SIZE) : 1;
  useEffect(() => {
    if (data && !isPlaceholderData && params.page > pages) update({ page: pages }, { replace: true });
  }, [data, isPlaceholderData, params.page, pages, update]);

  return (
    <Card>
      <CardHeader>
        <CardTitle>Decisions</CardTitle>
        <CardDescription>Every decision from your meetings, newest first, with the later ones that replaced them.</CardDescription>
      </CardHeader>
      <CardContent>
        <div className="mb-4 flex" role="search">
          <SearchBox label="Search decisions" placeholder="Search decisions and meeting titles..." value={params.q} onSearch={onSearch} />
        </div>
        {isPending ? (
          <ListSkeleton label="Loading decisions" />
        ) : isError && !data ? (
          <QueryError error={error} retry={refetch} retrying={isFetching} title="Decisions could not be loaded." />
        ) : data.items.length === 0 ? (
          <NoDecisions q={params.q} onClear={() => update({ q: '' })} />
        ) : (
          <>
            <p className="mb-3 text-sm text-muted-foreground" aria-live="polite">
              {data.total === 1 ? '1 decision' : `${data.total} decisions`}
              {pages > 1 && ` · page ${Math.min(params.page, pages)} of ${pages}`}
            </p>
            <ul className={`divide-y transition-opacity ${isPlaceholderData && isFetching ? 'opacity-60' : ''}`} aria-label="Decisions" aria-busy={isFetching}>
              {data.items.map((decision) => (
                <DecisionRow key={decision.id} decision={decision} />
              ))}
            </ul>
            {pages > 1 && (
              <Pagination
                page={Math.min(params.page, pages)}
                pages={pages}
                hrefFor={(page) => `?${writeDecisionParams(searchParams, { ...params, page }).toString()}`}
              />
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

function NoDecisions({ q, onClear }: { q: string; onClear: () => void }) {
  return (
    <div className="py-10 text-center">
      {q ? (
        <>
          <SearchXIcon className="mx-auto mb-3 size-8 text-muted-foreground" aria-hidden="true" />
          <p className="font-medium">No decisions match “{q}”.</p>
          <Button variant="outline" className="mt-4" onClick={onClear}>
            Show all decisions
          </Button>
        </>
      ) : (
        <>
          <LightbulbIcon className="mx-auto mb-3 size-8 text-muted-foreground" aria-hidden="true" />
          <p className="font-medium">No decisions yet</p>
          <p className="mt-1 text-sm text-muted-foreground">Decisions found in your meetings appear here, newest first.</p>
        </>
      )}
    </div>
  );
}
