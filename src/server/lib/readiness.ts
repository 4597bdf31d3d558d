/** One dependency's state as /readyz reports it: ok, or the reason it is not. */
export type DependencyState = { ok: true } | { ok: false; reason: string };

/** A named check of one dependency this process needs to serve (the database, Redis, the blob store). */
export type ReadinessCheck = { name: string; check: () => Promise<void> };

/** How long one check may take before its dependency counts as down. */
const CHECK_TIMEOUT_MS = 2_000;

const within = <T>(work: Promise<T>, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
    work.then(resolve, reject).finally(() => clearTimeout(timer));
  });

/**
 * Runs every check at once (each within its time limit) and answers each dependency's state, so a
 * load balancer's readiness probe and an operator both read which one is down and why.
 */
export async function checkReadiness(checks: readonly ReadinessCheck[]): Promise<Record<string, DependencyState>> {
  const states = await Promise.all(
    checks.map(async ({ name, check }): Promise<[string, DependencyState]> => {
      try {
        await within(check(), CHECK_TIMEOUT_MS);
        return [name, { ok: true }];
      } catch (error) {
        return [name, { ok: false, reason: error instanceof Error ? error.message : String(error) }];
      }
    }),
  );
  return Object.fromEntries(states);
}
