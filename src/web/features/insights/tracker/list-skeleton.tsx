import { Skeleton } from '#web/components/ui/skeleton.tsx';

/** Rows in the shape of the list that is loading. */
export function ListSkeleton({ label }: { label: string }) {
  return (
    <div className="grid gap-4" aria-busy="true" aria-label={label} role="status">
      {Array.from({ length: 4 }, (_, i) => (
        <div key={i} className="flex gap-3">
          <Skeleton className="size-4" />
          <div className="grid flex-1 gap-2">
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="h-4 w-1/2" />
          </div>
        </div>
      ))}
    </div>
  );
}
