import type { UseQueryResult } from '@tanstack/react-query';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { SETTINGS_MESSAGES } from './settings-messages.ts';

/** What a settings tab shows until the stored settings are here: a loading line, or why not and a retry. */
export function SettingsLoadState({ title, query }: { title: string; query: Pick<UseQueryResult, 'isError' | 'error' | 'refetch' | 'isFetching'> }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent className="grid justify-items-start gap-3">
        {query.isError ? (
          <>
            <p role="alert" className="text-sm">
              {SETTINGS_MESSAGES.loadFailed} {query.error?.message}
            </p>
            <Button variant="outline" disabled={query.isFetching} onClick={() => void query.refetch()}>
              Try again
            </Button>
          </>
        ) : (
          <p role="status" className="text-sm text-muted-foreground">
            {SETTINGS_MESSAGES.loading}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
