/** One dependency's state as /readyz reports it: ok, or the reason it is not. */
export type DependencyState = { ok: true } | { ok: false; reason: string };

/**
 * A named check of one dependency (the database, Redis). `required`: without it this process serves
 * nothing, so a load balancer should take it out; a dependency shared by every process whose loss
 * only narrows what they do (Redis: password sign-in waits, reading goes on) leaves it in service,
 * degraded, since taking every process out at once would stop the rest too.
 */
export type ReadinessCheck = { name: string; required: boolean; check: () => Promise<void> };

/** How long one check may take before its dependency counts as down. */
const CHECK_TIMEOUT_MS = 2_000;

const within = <T>(work: Promise<T>, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
    work.then(resolve, reject).finally(() => clearTimeout(timer));
  });

/**
 * Runs every check at once (each within its time limit) and answers each dependency's state, so a
 * load balancer's readiness probe and an operator both read which one is down and why: `ready`
 * while every one answers, `degraded` while only dependencies not `required` are down, else `unavailable`.
 */
export async function checkReadiness(
  checks: readonly ReadinessCheck[],
): Promise<{ status: 'ready' | 'degraded' | 'unavailable'; dependencies: Record<string, DependencyState> }> {
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
  const down = checks.filter((_, i) => !states[i]![1].ok);
  const status = down.length === 0 ? 'ready' : down.every((check) => !check.required) ? 'degraded' : 'unavailable';
  return { status, dependencies: Object.fromEntries(states) };
}
