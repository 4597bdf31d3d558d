import type { Page } from 'playwright-core';

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
