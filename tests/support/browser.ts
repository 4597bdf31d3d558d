import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import type { E2eServer } from './e2e-global-setup.ts';

/** Debian's chromium; playwright-core never downloads a browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The features playwright-core turns off (its chromiumSwitches, 1.65). Chromium reads only the last
 * --disable-features it is given, so ours must repeat them: launchBrowser checks that they still do.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Headless Chromium 156 opens two WebUI omnibox popups (chrome://omnibox-popup.top-chrome/) for the
 * window of every browser context, each in a renderer of its own that no test ever shows: a quarter
 * of chromium's CPU in the browser tests (573 -> 429 s), which open hundreds of contexts.
 */
const DISABLED_FEATURES = [...PLAYWRIGHT_DISABLED_FEATURES, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/**
 * Flags for a headless chromium on a machine without internet: no background networking, no
 * component updates, no first-run UI. The fake media flags give getUserMedia a synthetic microphone.
 */
const CHROMIUM_ARGS = [
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  // V8's optimising compilers (TurboFan, Maglev) off: a test's page lives seconds, too short for what
  // they compile to pay back, and they compile on the cores the tests need. Same JavaScript, same
  // results; the interpreter and Sparkplug run it.
  '--js-flags=--no-opt --no-maglev',
];

/** `extraArgs`: e.g. `--use-file-for-fake-audio-capture=<wav>` so the fake microphone speaks. */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`No chromium at ${CHROMIUM_PATH}: run \`npm test\` (it installs Debian's chromium) or set CHROMIUM_PATH.`);
  }
  checkDisabledFeatures();
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/**
 * Fails when playwright-core turns off a feature that our --disable-features (which replaces its own)
 * would leave on: its list, read from its bundle, must be within PLAYWRIGHT_DISABLED_FEATURES.
 */
let featuresChecked = false;
function checkDisabledFeatures(): void {
  if (featuresChecked) return;
  const bundle = fs.readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve('playwright-core')), 'lib', 'coreBundle.js'), 'utf8');
  const list = /\bdisabledFeatures = \[([^\]]*)\]/.exec(bundle)?.[1];
  if (list === undefined)
    throw new Error(
      "playwright-core's disabled features were not found in its bundle: compare them with PLAYWRIGHT_DISABLED_FEATURES (tests/support/browser.ts) by hand",
    );
  const missing = [...list.replace(/\/\/.*$/gm, '').matchAll(/"(\w+)"/g)]
    .map((m) => m[1]!)
    .filter((feature) => !PLAYWRIGHT_DISABLED_FEATURES.includes(feature));
  if (missing.length > 0)
    throw new Error(`playwright-core now turns off ${missing.join(', ')}: add them to PLAYWRIGHT_DISABLED_FEATURES (tests/support/browser.ts)`);
  featuresChecked = true;
}

/**
 * Picks `option` in a select (Radix's) with the keyboard, as a person may: opens it with ArrowDown,
 * waits until the open list holds the focus (it has placed itself and focused the current option),
 * then chooses with Enter and waits for the list to close. The pointer is moved off first: an option
 * under it takes the focus whenever the list scrolls beneath it (chromium then sends a mouse move).
 * Clicks were not reliable: one on an option while the list was still placing itself, or growing as
 * it scrolled, landed on another option or on the page beneath.
 */
export async function chooseOption(page: Page, select: Locator, option: string): Promise<void> {
  await page.mouse.move(0, 0);
  await select.focus();
  await page.keyboard.press('ArrowDown');
  const list = page.getByRole('listbox');
  await expect.poll(() => list.evaluate((element) => element.contains(element.ownerDocument.activeElement))).toBe(true);
  await list.getByRole('option', { name: option, exact: true }).press('Enter');
  await list.waitFor({ state: 'detached' });
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 740 };

/**
 * The motion setting of the browser tests' pages (newPage, signedInPage): reduced, as a person can ask
 * their system for (prefers-reduced-motion; src/web/styles.css then stops the app's animations). No
 * test asserts a movement; without the dialogs', menus' and spinners' animations chromium draws fewer
 * frames and a click no longer waits
 * for its target to stop moving. The default motion has its own test (accessibility.spec.ts), and the
 * few contexts the tests open themselves (a visitor's) keep it.
 */
export const TEST_MOTION = 'reduce';

export async function newPage(browser: Browser, baseURL: string, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport, reducedMotion: TEST_MOTION });
  const page = await context.newPage();
  return { context, page };
}

/**
 * The built file (`assets/….js`, hashed) of the first chunk whose manifest key matches: a module's own
 * chunk by its source path, or a shared chunk by its name (`_signed-in-…`). Fails when there is none.
 */
export function builtChunk(key: RegExp): string {
  const manifest = JSON.parse(fs.readFileSync('dist/web/.vite/manifest.json', 'utf8')) as Record<string, { file: string }>;
  const found = Object.entries(manifest).find(([name]) => key.test(name));
  if (!found) throw new Error(`no chunk for ${key} in the manifest`);
  return found[1].file;
}

let counter = 0;
/** A fresh address per test so tests never depend on each other's accounts (the pid: files run in parallel processes). */
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${process.pid}-${counter}@example.com`;
}

/**
 * This worker's server, started by e2e-global-setup.ts: each worker has its own, so the files it runs
 * one after another share it as they did when every file ran in turn.
 */
export function e2eServer(): E2eServer {
  const servers = inject('e2eServers');
  return servers[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % servers.length]!;
}
