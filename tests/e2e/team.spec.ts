import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, uniqueEmail } from '#tests/support/browser.ts';
import { signedInPage } from '#tests/support/e2e-auth.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

/** Spec §2: default style when active, destructive when busy, outline otherwise. */
const VARIANT_OF_STATUS: Record<string, string> = { active: 'default', busy: 'destructive', away: 'outline' };

describe('/team', () => {
  it('in no team yet: the heading, the two tabs, you as the first member and the sample team with the right badges', async () => {
    const email = uniqueEmail('team');
    const { context, page } = await signedInPage(browser, { fullName: 'Ada Lovelace', email, password: 'engine1843' });
    await page.goto('/team');
    await page.getByRole('heading', { level: 1, name: 'Team' }).waitFor();
    await page.getByText('Manage your team members and their access.').waitFor();
    // The tabs come with the teams' list, after the heading: read once they are there.
    await expect.poll(() => page.getByRole('tab').allTextContents()).toEqual(['Team Members', 'Activity']);
    expect(await page.getByRole('tab', { name: 'Team Members' }).getAttribute('aria-selected')).toBe('true');

    const members = page.getByRole('list', { name: 'Team members' }).getByRole('listitem');
    await members.first().waitFor();
    expect(await members.count()).toBe(6);
    const you = members.first();
    await you.getByRole('heading', { name: 'Ada Lovelace' }).waitFor();
    await you.getByText('Owner', { exact: true }).waitFor();
    await you.getByText(email).waitFor();
    await you.getByText('You', { exact: true }).waitFor();
    expect(await you.getByText('Sample', { exact: true }).count()).toBe(0);
    const yourBadge = you.locator('[data-slot="badge"][data-status]');
    expect(await yourBadge.textContent()).toBe('Available');
    expect(await yourBadge.getAttribute('data-variant')).toBe('default');
    expect(await yourBadge.getAttribute('class')).toContain('bg-primary');

    // Every other member is sample data and says so.
    for (let i = 1; i < 6; i += 1) await members.nth(i).getByText('Sample', { exact: true }).waitFor();

    const badges = await page.locator('[data-slot="badge"][data-status]').evaluateAll((nodes) =>
      nodes.map((node) => ({
        status: node.getAttribute('data-status'),
        variant: node.getAttribute('data-variant'),
        text: node.textContent,
        className: node.className,
      })),
    );
    for (const badge of badges) expect(badge.variant, badge.text ?? '').toBe(VARIANT_OF_STATUS[badge.status ?? '']);
    expect(new Set(badges.map((badge) => badge.text))).toEqual(new Set(['Available', 'In a meeting', 'Away']));
    expect(badges.find((badge) => badge.status === 'busy')?.className).toContain('bg-destructive');
    for (const label of ['Last active', 'Meetings recorded', 'Meetings attended']) await you.getByText(label).first().waitFor();

    await you.getByRole('button', { name: 'View Profile' }).click();
    const profile = page.getByRole('dialog', { name: 'Ada Lovelace' });
    await profile.getByText(email).waitFor();
    await profile.getByText('Owner').first().waitFor();
    await page.keyboard.press('Escape');
    await profile.waitFor({ state: 'detached' });
    await context.close();
  });

  it('Activity: the Team Activity card grouped Today, Yesterday, Last Week', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Mary Somerville', email: uniqueEmail('team'), password: 'connexion1' });
    await page.goto('/team');
    await page.getByRole('tab', { name: 'Activity' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Activity' });
    await panel.getByText('Team Activity', { exact: true }).waitFor();
    await panel.getByText('Recent actions by team members').waitFor();
    expect(await panel.getByRole('heading', { level: 3 }).allTextContents()).toEqual(['Today', 'Yesterday', 'Last Week']);
    for (const action of ['recorded a new meeting', 'downloaded transcripts', 'shared AI insights', 'to the team', 'analyzed sentiment trends']) {
      await panel.getByText(action).first().waitFor();
    }
    await context.close();
  });
});
