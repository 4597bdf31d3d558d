/** A failed load is tried again after this long (a fixed model, more memory…) without a restart. */
const RECHECK_FAILED_MS = 5 * 60_000;

/**
 * Whether the installed models under a key load, remembered so that each check does not start a
 * host: a success until the key (the installation) changes, a failure for RECHECK_FAILED_MS.
 */
export function createLoadVerdict<A extends { available: boolean }>() {
  let verdict: { key: string; availability: A; at: number } | undefined;
  const remember = (key: string, availability: A) => {
    verdict = { key, availability, at: Date.now() };
    return availability;
  };
  return {
    /** The remembered verdict for `key`, else `load()`'s, remembered. */
    async check(key: string, load: () => Promise<A>): Promise<A> {
      if (verdict?.key === key && (verdict.availability.available || Date.now() - verdict.at < RECHECK_FAILED_MS)) return verdict.availability;
      return remember(key, await load());
    },
    /** A verdict learned otherwise (models that load but fail on audio). */
    remember,
  };
}
