import { RotateCcwIcon } from 'lucide-react';
import { cn } from '#web/lib/utils.ts';
import { Button } from './ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from './ui/card.tsx';

type QueryErrorProps = {
  /** The failed query's error. */
  error: Error;
  /** Loads again: the query's refetch. */
  retry: () => unknown;
  /** What could not be loaded, in the screen's own words ("Your meetings could not be loaded."). */
  title: string;
  /** Where the error's message goes: under the title (the default), after it in the same sentence, or nowhere. */
  reason?: 'below' | 'inline' | 'none';
  /** A card title above the message, for a screen whose card keeps its heading while it failed. */
  heading?: string;
  /** Disables Try again while the retry is under way. */
  retrying?: boolean;
  className?: string;
};

/** A screen's data could not be loaded: says so in the screen's words and offers Try again. */
export function QueryError({ error, retry, title, reason = 'below', heading, retrying = false, className }: QueryErrorProps) {
  return (
    <Card className={className}>
      {heading && (
        <CardHeader>
          <CardTitle>{heading}</CardTitle>
        </CardHeader>
      )}
      <CardContent className={cn('flex flex-col items-center gap-3 text-center', !heading && 'py-10')}>
        <div role="alert" className="grid gap-1">
          <p className="font-medium">{reason === 'inline' ? `${title} ${error.message}` : title}</p>
          {reason === 'below' && <p className="text-sm text-muted-foreground">{error.message}</p>}
        </div>
        <Button variant="outline" disabled={retrying} onClick={() => void retry()}>
          <RotateCcwIcon aria-hidden="true" />
          Try again
        </Button>
      </CardContent>
    </Card>
  );
}
