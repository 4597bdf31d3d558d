import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** The impacts a page must never have: what keeps a person on a screen reader or a keyboard out. */
const BLOCKING = new Set(['serious', 'critical']);

/**
 * axe-core's serious and critical violations on the page as it is now, one line each: rule, what it
 * asks for, and the elements (CSS selectors) that break it. An empty list when the page passes.
 * Call it once the page shows what is under test (axe reads the DOM as it stands).
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => BLOCKING.has(v.impact ?? ''))
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
