import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** The impacts a page must never have: what keeps a person on a screen reader or a keyboard out. */
const BLOCKING = new Set(['serious', 'critical']);

/**
 * axe-core's serious and critical violations on the page as it is now, one line each: rule, what it
 * asks for, and the elements (CSS selectors) that break it. An empty list when the page passes.
 * Call it once the page shows what is under test (axe reads the DOM as it stands). Transitions under
 * way (a menu fading and zooming in) end first: axe measures colour contrast from the computed
 * colours, and half-way through a fade a menu item's red on its half-transparent background fails.
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  await page.evaluate(async () => {
    // Runs in the page (these tests' types have no DOM). Endless ones (spinners, skeletons' pulse) never finish and are left to run.
    type Running = { effect: { getComputedTiming: () => { iterations?: number } } | null; finished: Promise<unknown> };
    const { document } = globalThis as unknown as { document: { getAnimations: () => Running[] } };
    const finite = document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity);
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
  });
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => BLOCKING.has(v.impact ?? ''))
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
