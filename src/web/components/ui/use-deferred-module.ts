import { useCallback, useState } from 'react';
import type { DeferredModule } from '#web/lib/deferred-module.ts';
import { toast } from '#web/lib/toast.ts';

/** Said by default when a menu's or a panel's code cannot be downloaded; the next press tries again. */
export const DEFERRED_LOAD_FAILED = 'This menu could not be downloaded. Check your connection and try again.';

/**
 * A deferred module for a component: the module once it is here (at once when another component
 * loaded it), and `want`, which asks for it. A wish the person made (a press) that fails says so, in
 * `failure` (a component that is no menu names itself); a prefetch (`quiet`) that fails says
 * nothing, and the press after it tries again. `want` resolves to the module, or to undefined when
 * it could not be downloaded, so a component can take back what the press began (an open state
 * that a later prefetch's arrival would otherwise act on, unasked).
 */
export function useDeferredModule<T>(
  module: DeferredModule<T>,
  failure: string = DEFERRED_LOAD_FAILED,
): [T | undefined, (options?: { quiet?: boolean }) => Promise<T | undefined>] {
  const [value, setValue] = useState(module.current);
  const want = useCallback(
    ({ quiet = false }: { quiet?: boolean } = {}) =>
      module.load().then(
        (loaded) => {
          // Setting the state of a component gone since is a no-op in React 19.
          setValue(() => loaded);
          return loaded;
        },
        () => {
          if (!quiet) toast.error(failure, { id: 'deferred-load-failed' });
          return undefined;
        },
      ),
    [module, failure],
  );
  return [value, want];
}
