import fs from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM_PATH } from '#tests/support/browser.ts';
import { fetchAnonKey, testClient } from '#tests/support/supabase-client.ts';
import type { Row } from './lib/report.ts';
import { startServer } from './lib/server.ts';

/** Issue 14's goal: Lighthouse's mobile performance score of each page. */
const GOAL = 90;

const PAGES = [
  { path: '/', signedIn: false },
  { path: '/auth', signedIn: false },
  { path: '/dashboard', signedIn: true },
] as const;

/**
 * Lighthouse's mobile performance audit (its default: a mid-range phone, simulated slow 4G and a 4×
 * slower CPU, so a loaded machine moves the scores little) of the public landing page, the sign-in
 * page and the signed-in dashboard, on the built server with Debian's chromium.
 */
export async function benchLighthouse(): Promise<Row[]> {
  if (!fs.existsSync('dist/web/index.html')) return [{ name: 'lighthouse', value: 'no dist/web (npm run build first)' }];
  const server = await startServer();
  try {
    const session = await signedUpSession(server.baseUrl);
    const rows: Row[] = [];
    for (const page of PAGES) {
      const audited = () => audit(server.baseUrl, page.path, page.signedIn ? session : undefined);
      // On a loaded machine Chrome now and then fails to record the page load's trace (NO_NAVSTART); Lighthouse says to run it again.
      const row = await audited();
      rows.push(row.value.startsWith('no score') ? await audited() : row);
    }
    return rows;
  } finally {
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}

type StoredSession = { storageKey: string; value: string };

/** A new account's session exactly as supabase-js stores it in the browser's localStorage. */
async function signedUpSession(baseUrl: string): Promise<StoredSession> {
  const { sb, storage, storageKey } = testClient(baseUrl, await fetchAnonKey(baseUrl));
  const { error } = await sb.auth.signUp({
    email: `bench-lighthouse-${Date.now()}@example.com`,
    password: 'bench-password-1',
    options: { data: { full_name: 'Bench User' } },
  });
  const value = storage.get(storageKey);
  if (error || !value) throw new Error(`could not sign up for the Lighthouse run: ${error?.message ?? 'no session'}`);
  return { storageKey, value };
}

/**
 * One page in a fresh browser (an empty cache: a first visit). A signed-in page gets the session in
 * localStorage first, written by playwright-core on the same debugging port from a same-origin page
 * that loads no script (/healthz), and Lighthouse then keeps storage (disableStorageReset) — which
 * also keeps the cache, empty here as nothing cacheable was loaded.
 */
async function audit(baseUrl: string, pagePath: string, session?: StoredSession): Promise<Row> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    if (session) await storeSession(chrome.port, baseUrl, session);
    const result = await lighthouse(`${baseUrl}${pagePath}`, {
      port: chrome.port,
      logLevel: 'error',
      output: 'json',
      onlyCategories: ['performance'],
      disableStorageReset: Boolean(session),
    });
    const lhr = result?.lhr;
    if (lhr && process.env.BENCH_LIGHTHOUSE_REPORTS) saveReport(process.env.BENCH_LIGHTHOUSE_REPORTS, pagePath, lhr);
    const score = lhr?.categories.performance?.score;
    if (!lhr || score === null || score === undefined)
      return { name: `lighthouse ${pagePath}`, value: `no score (${lhr?.runtimeError?.message ?? 'no result'})` };
    const metric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    const performance = Math.round(score * 100);
    return {
      name: `lighthouse ${pagePath} (mobile performance)`,
      value: `${performance} (goal ≥ ${GOAL}${performance >= GOAL ? ', met' : ', missed'})`,
      note: `LCP ${(metric('largest-contentful-paint') / 1000).toFixed(2)} s, TBT ${metric('total-blocking-time').toFixed(0)} ms, CLS ${metric('cumulative-layout-shift').toFixed(3)}`,
    };
  } finally {
    chrome.kill();
  }
}

/** BENCH_LIGHTHOUSE_REPORTS=<dir> keeps each page's full report (JSON, as Lighthouse's viewer reads it) to see why a score is what it is. */
function saveReport(dir: string, pagePath: string, lhr: object): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${pagePath.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'landing'}.json`), JSON.stringify(lhr));
}

async function storeSession(port: number, baseUrl: string, session: StoredSession): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0] ?? (await browser.newContext());
    const page = await context.newPage();
    await page.goto(`${baseUrl}/healthz`);
    await page.evaluate(
      ({ key, value }) => {
        // Runs in the page: its localStorage, where supabase-js looks for the session.
        const storage = (globalThis as unknown as { localStorage: { setItem: (key: string, value: string) => void } }).localStorage;
        storage.setItem(key, value);
      },
      { key: session.storageKey, value: session.value },
    );
    await page.close();
  } finally {
    // Disconnects playwright only: the browser stays for Lighthouse.
    await browser.close();
  }
}
