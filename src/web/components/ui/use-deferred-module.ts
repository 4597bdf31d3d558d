import { useCallback, useState } from 'react';
import type { DeferredModule } from '#web/lib/deferred-module.ts';
import { toast } from '#web/lib/toast.ts';

/** Said when a menu's or a panel's code cannot be downloaded; the next press tries again. */
export const DEFERRED_LOAD_FAILED = 'This menu could not be downloaded. Check your connection and try again.';

/**
 * A deferred module for a component: the module once it is here (at once when another component
 * loaded it), and `want`, which asks for it. A wish the person made (a press) that fails says so; a
 * prefetch (`quiet`) that fails says nothing, and the press after it tries again.
 */
export function useDeferredModule<T>(module: DeferredModule<T>): [T | undefined, (options?: { quiet?: boolean }) => void] {
  const [value, setValue] = useState(module.current);
  const want = useCallback(
    ({ quiet = false }: { quiet?: boolean } = {}) => {
      module.load().then(
        // Setting the state of a component gone since is a no-op in React 19.
        (loaded) => setValue(() => loaded),
        () => quiet || toast.error(DEFERRED_LOAD_FAILED, { id: 'deferred-load-failed' }),
      );
    },
    [module],
  );
  return [value, want];
}
