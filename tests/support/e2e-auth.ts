import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DESKTOP, e2eServer, TEST_MOTION, uniqueEmail } from './browser.ts';
import { fetchAnonKey, storageKeyFor, testClient } from './supabase-client.ts';

/**
 * The /auth form as a person uses it: by tab names, field labels and button texts (spec §2, §5).
 * Kept in one place so every browser test signs people up and in the same way.
 */
export async function fillSignUp(page: Page, account: { fullName: string; email: string; password: string }): Promise<void> {
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Sign Up' });
  await panel.getByLabel('Full Name').fill(account.fullName);
  await panel.getByLabel('Email').fill(account.email);
  await panel.getByLabel('Password', { exact: true }).fill(account.password);
}

export async function submitSignUp(page: Page): Promise<void> {
  await page.getByRole('tabpanel', { name: 'Sign Up' }).getByRole('button', { name: 'Create Account' }).click();
}

export async function signUp(page: Page, account: { fullName: string; email: string; password: string }): Promise<void> {
  await fillSignUp(page, account);
  await submitSignUp(page);
  await page.waitForURL(/\/dashboard$/);
}

export async function signIn(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign In' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Sign In' });
  await panel.getByLabel('Email').fill(account.email);
  await panel.getByLabel('Password', { exact: true }).fill(account.password);
  await panel.getByRole('button', { name: 'Sign In' }).click();
}

/** Opens the user menu in the shell and signs out. */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: /user menu/i }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
}

/** A sonner toast with exactly this text. */
export const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text });

export type E2eAccount = { fullName: string; email: string; password: string };

type SignedInPageOptions = Partial<E2eAccount> & {
  /** The server to sign in on: this worker's from e2e-global-setup unless a test has its own. */
  baseUrl?: string;
  viewport?: { width: number; height: number };
  /** A touch screen without a mouse (`pointer: coarse`, no hover): `locator.tap()` works. */
  touch?: boolean;
  /** An account that already exists, signed in rather than signed up (a second device of the same person). */
  signInAs?: { email: string; password: string };
  /** The IANA zone the browser says it is in (Intl, Date): the machine's when left out. */
  timezoneId?: string;
  /** Called with the new browser context before its first page loads (to hold back a download, say). */
  prepare?: (context: BrowserContext) => Promise<unknown>;
};

const anonKeys = new Map<string, Promise<string>>();

/** Waits, as the dashboard does, until the account's sample meetings are set up (GET /api/v1/meetings/stats). */
async function samplesSetUp(baseUrl: string, accessToken: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await fetch(`${baseUrl}/api/v1/meetings/stats`, { headers: { authorization: `Bearer ${accessToken}` } });
    if (!response.ok) throw new Error(`GET /api/v1/meetings/stats: ${response.status} ${await response.text()}`);
    if (!((await response.json()) as { samplesSettingUp: boolean }).samplesSettingUp) return;
    if (Date.now() > deadline) throw new Error('the sample meetings were not set up within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * A browser page already signed in, for the browser tests whose subject is not signing up (auth.spec.ts
 * keeps the forms): a new account signed up through /auth/v1 by the real supabase-js client (which the
 * server's Supabase Auth contract serves, with the name as the sign-up form sends it), and a context
 * that starts with that session in localStorage, stored exactly as supabase-js stores it. The page
 * opens on /dashboard, welcomed, as after the sign-up form. Name, email and password are made up when
 * not given; `account` says what they were, for tests that read them back or sign in again.
 *
 *   const { context, page, account } = await signedInPage(browser, { fullName: 'Ada Lovelace' });
 */
export async function signedInPage(browser: Browser, options: SignedInPageOptions = {}): Promise<{ context: BrowserContext; page: Page; account: E2eAccount }> {
  const baseUrl = options.baseUrl ?? e2eServer().baseUrl;
  let anonKey = anonKeys.get(baseUrl);
  if (!anonKey) anonKeys.set(baseUrl, (anonKey = fetchAnonKey(baseUrl)));
  const { sb, storage, storageKey } = testClient(baseUrl, await anonKey);
  const account: E2eAccount = {
    fullName: options.fullName ?? 'Test Person',
    email: options.signInAs?.email ?? options.email ?? uniqueEmail('e2e'),
    password: options.signInAs?.password ?? options.password ?? 'password1',
  };
  const { data, error } = options.signInAs
    ? await sb.auth.signInWithPassword({ email: account.email, password: account.password })
    : await sb.auth.signUp({ email: account.email, password: account.password, options: { data: { full_name: account.fullName } } });
  const session = storage.get(storageKey);
  if (error || !session || !data.session)
    throw new Error(`could not sign ${account.email} in through /auth/v1: ${error?.message ?? 'no session (is AUTH_AUTOCONFIRM off?)'}`);
  // A new account's sample meetings are set up by a job moments after the sign-up: the page opens
  // once they are there, so a test never sees them arrive halfway (first-visit.spec.ts sees them come).
  if (!options.signInAs) await samplesSetUp(baseUrl, data.session.access_token);

  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: options.viewport ?? DESKTOP,
    hasTouch: options.touch ?? false,
    reducedMotion: TEST_MOTION,
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
    storageState: { cookies: [], origins: [{ origin: new URL(baseUrl).origin, localStorage: [{ name: storageKey, value: session }] }] },
  });
  await options.prepare?.(context);
  const page = await context.newPage();
  await page.goto('/dashboard');
  await page.getByRole('heading', { name: /^Welcome (back|to Parley), / }).waitFor();
  return { context, page, account };
}

/** The access token this page's supabase-js holds (localStorage), for a test that calls the API as that person. */
export async function storedAccessToken(page: Page): Promise<string> {
  return page.evaluate((name) => {
    // Runs in the page: its localStorage, as supabase-js stored the session there.
    const storage = (globalThis as unknown as { localStorage: { getItem: (key: string) => string | null } }).localStorage;
    return (JSON.parse(storage.getItem(name) ?? '{}') as { access_token?: string }).access_token ?? '';
  }, storageKeyFor(page.url()));
}

/**
 * What the server answers (GET /api/v1/me) to the access token this page's supabase-js holds:
 * 200 while its session lives, 401 once it was ended elsewhere (a new password, a deleted account).
 */
export async function storedTokenStatus(page: Page): Promise<number> {
  const token = await storedAccessToken(page);
  const response = await fetch(new URL('/api/v1/me', page.url()), { headers: { authorization: `Bearer ${token}` } });
  return response.status;
}
