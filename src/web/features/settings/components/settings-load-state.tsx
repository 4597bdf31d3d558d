import type { UseQueryResult } from '@tanstack/react-query';
import { QueryError } from '#web/components/query-error.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { SETTINGS_MESSAGES } from '../settings-messages.ts';

/** What a settings tab shows until the stored settings are here: a loading line, or why not and a retry. */
export function SettingsLoadState({ title, query }: { title: string; query: UseQueryResult<unknown> }) {
  if (query.isError) {
    return (
      <QueryError heading={title} error={query.error} retry={query.refetch} retrying={query.isFetching} title={SETTINGS_MESSAGES.loadFailed} reason="inline" />
    );
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent className="grid justify-items-start gap-3">
        <p role="status" className="text-sm text-muted-foreground">
          {SETTINGS_MESSAGES.loading}
        </p>
      </CardContent>
    </Card>
  );
}
