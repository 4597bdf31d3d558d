import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseOption, e2eServer, launchBrowser, uniqueEmail } from '#tests/support/browser.ts';
import { signedInPage, signIn, signOut, storedTokenStatus, toast } from '#tests/support/e2e-auth.ts';

const { baseUrl } = e2eServer();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

/** A new account, signed in on a browser in Los Angeles (its first visit takes the browser's zone), on /settings. */
async function openSettings(account: { fullName: string; password: string }) {
  const {
    context,
    page,
    account: signedUp,
  } = await signedInPage(browser, {
    ...account,
    email: uniqueEmail('settings'),
    timezoneId: 'America/Los_Angeles',
  });
  await page.goto('/settings');
  await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
  return { context, page, email: signedUp.email };
}

async function openTab(page: Page, name: string) {
  await page.getByRole('tab', { name }).click();
  await page.getByRole('tabpanel', { name }).waitFor();
  return page.getByRole('tabpanel', { name });
}

/**
 * The same account in a second browser context: no shared cookies, session or localStorage, so what
 * it sees was stored on the server.
 */
async function openTabElsewhere(account: { email: string; password: string }, tab: string) {
  const { context, page } = await signedInPage(browser, { signInAs: account });
  expect(await page.evaluate(() => Object.keys(window.localStorage).filter((key) => key.startsWith('parley:settings:')))).toEqual([]);
  await page.goto('/settings');
  const panel = await openTab(page, tab);
  return { context, page, panel };
}

const combobox = (page: Page, name: string) => page.getByRole('combobox', { name });
const switchState = (page: Page, name: string) => page.getByRole('switch', { name, exact: true }).getAttribute('aria-checked');

async function choose(page: Page, select: string, option: string) {
  await chooseOption(page, combobox(page, select), option);
  await expect.poll(() => combobox(page, select).textContent()).toBe(option);
}

describe('/settings', () => {
  it("has the spec's five tabs and Developers, with Profile first and selected", async () => {
    const { context, page } = await openSettings({ fullName: 'Frances Allen', password: 'compiler1' });
    const tabs = await page.getByRole('tab').allTextContents();
    expect(tabs).toEqual(['Profile', 'Notifications', 'Recording', 'Privacy', 'Billing', 'Developers']);
    expect(await page.getByRole('tab', { name: 'Profile' }).getAttribute('aria-selected')).toBe('true');
    await context.close();
  });

  it('Profile: read-only until Edit, Save Changes stores it on the account, a reload keeps it and the user menu shows the new name', async () => {
    const { context, page, email } = await openSettings({ fullName: 'Grace Hopper', password: 'cobol1959' });
    const field = (label: string) => page.getByLabel(label, { exact: true });

    expect(await field('First name').inputValue()).toBe('Grace');
    expect(await field('Last name').inputValue()).toBe('Hopper');
    expect(await field('Email').inputValue()).toBe(email);
    expect(await field('First name').getAttribute('readonly')).not.toBeNull();
    expect(await combobox(page, 'Timezone').textContent()).toBe('Pacific Time');
    expect(await combobox(page, 'Timezone').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save Changes' }).count()).toBe(0);

    // Cancel throws the edits away.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await field('First name').fill('Nobody');
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await field('First name').inputValue()).toBe('Grace');

    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByRole('button', { name: 'Done' }).waitFor();
    await page.getByRole('button', { name: 'Change', exact: true }).waitFor();
    expect(await field('Email').getAttribute('readonly')).not.toBeNull(); // an email change is an email flow
    await field('First name').fill('Amazing');
    await field('Last name').fill('Grace');
    await field('Job Title').fill('Rear Admiral');
    await field('Location').fill('Arlington');
    await choose(page, 'Timezone', 'Eastern Time');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Profile updated successfully').filter({ hasText: 'Your changes have been saved.' }).waitFor();
    await page.getByRole('button', { name: 'Edit', exact: true }).waitFor();
    await page.getByRole('button', { name: 'User menu for Amazing Grace' }).waitFor();

    await page.reload();
    await expect.poll(() => field('First name').inputValue()).toBe('Amazing');
    expect(await field('Last name').inputValue()).toBe('Grace');
    expect(await field('Job Title').inputValue()).toBe('Rear Admiral');
    expect(await field('Location').inputValue()).toBe('Arlington');
    expect(await combobox(page, 'Timezone').textContent()).toBe('Eastern Time');
    await page.getByRole('button', { name: 'User menu for Amazing Grace' }).waitFor();
    await context.close();
  });

  it('Account Security: needs the current password, refuses a wrong one and the same password; a new one signs the other devices out', async () => {
    const { context, page, email } = await openSettings({ fullName: 'Katherine Johnson', password: 'orbit1962' });
    // The same person on a second device: the change signs it out, this one stays signed in.
    const elsewhere = await signedInPage(browser, { signInAs: { email, password: 'orbit1962' } });
    expect(await page.getByLabel('Current password').getAttribute('type')).toBe('password');
    const update = page.getByRole('button', { name: 'Update Password' });
    const current = page.getByLabel('Current password');

    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Confirm new password').fill('short');
    await update.click();
    await page.getByText('Enter your current password.').waitFor();
    await page.getByText('Password must be at least 6 characters long.').waitFor();

    await current.fill('orbit1962');
    await page.getByLabel('New password', { exact: true }).fill('trajectory1');
    await page.getByLabel('Confirm new password').fill('trajectory2');
    await update.click();
    await page.getByText('Passwords do not match.').waitFor();

    await page.getByLabel('New password', { exact: true }).fill('orbit1962');
    await page.getByLabel('Confirm new password').fill('orbit1962');
    await update.click();
    await toast(page, 'New password should be different from the old password.').waitFor();

    await current.fill('not-my-password');
    await page.getByLabel('New password', { exact: true }).fill('trajectory1');
    await page.getByLabel('Confirm new password').fill('trajectory1');
    await update.click();
    await toast(page, 'Your current password is not correct. Nothing was changed.').waitFor();
    // Refused: the other device is still signed in.
    expect(await storedTokenStatus(elsewhere.page)).toBe(200);

    await current.fill('orbit1962');
    await update.click();
    await toast(page, 'Password updated').waitFor();
    expect(await page.getByLabel('New password', { exact: true }).inputValue()).toBe('');
    expect(await current.inputValue()).toBe('');

    // The other device's session ended; this one stays signed in.
    expect(await storedTokenStatus(elsewhere.page)).toBe(401);
    await elsewhere.context.close();
    expect(await storedTokenStatus(page)).toBe(200);

    await signOut(page);
    await page.waitForURL(`${baseUrl}/`);
    await signIn(page, { email, password: 'trajectory1' });
    await page.waitForURL(/\/dashboard$/);
    await context.close();
  });

  it('Connected Accounts: the three services the spec names, each with what it does (connecting them: calendar.spec, chat-connections.spec)', async () => {
    const { context, page } = await openSettings({ fullName: 'Mary Jackson', password: 'windtunnel1' });
    for (const text of [
      'Microsoft Teams',
      'Sync meeting recordings',
      'Google Calendar',
      'Schedule and record from calendar',
      'Slack',
      'Share insights and transcripts',
    ])
      await page.getByText(text, { exact: true }).first().waitFor();
    await context.close();
  });

  it('Notifications: the spec defaults, Save Preferences toasts, and the choice is kept on the account (a reload, another browser)', async () => {
    const { context, page, email } = await openSettings({ fullName: 'Dorothy Vaughan', password: 'fortran1961' });
    await openTab(page, 'Notifications');
    const expected = {
      'Meeting Reminders': 'true',
      'Transcription Complete': 'true',
      'AI Insights Ready': 'true',
      'Team Activity': 'false',
      'Product Updates': 'true',
      'Action Items': 'true',
      Mentions: 'true',
      'Team Invitations': 'true',
    };
    for (const [name, state] of Object.entries(expected)) expect(await switchState(page, name), name).toBe(state);
    await page.getByRole('switch', { name: 'Team Activity' }).click();
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await toast(page, 'Notification preferences saved').waitFor();
    await page.reload();
    await openTab(page, 'Notifications');
    await expect.poll(() => switchState(page, 'Team Activity')).toBe('true');

    const elsewhere = await openTabElsewhere({ email, password: 'fortran1961' }, 'Notifications');
    await expect.poll(() => switchState(elsewhere.page, 'Team Activity')).toBe('true');
    expect(await switchState(elsewhere.page, 'Product Updates')).toBe('true');
    await elsewhere.context.close();
    await context.close();
  });

  it('Recording: the spec defaults, Restore Defaults brings back high/mp3, Save Settings toasts and keeps it on the account', async () => {
    const { context, page, email } = await openSettings({ fullName: 'Annie Easley', password: 'centaur1963' });
    await openTab(page, 'Recording');
    expect(await combobox(page, 'Audio Quality').textContent()).toBe('High');
    expect(await combobox(page, 'Default File Format').textContent()).toBe('MP3');
    expect(await switchState(page, 'Speaker Diarization')).toBe('true');
    expect(await switchState(page, 'Automatic Punctuation')).toBe('true');
    expect(await switchState(page, 'Filler Word Removal')).toBe('false');
    expect(await switchState(page, 'AI Summary Generation')).toBe('true');
    expect(await page.getByLabel('Auto-Save Location').inputValue()).toBe('cloud storage');
    expect(await page.getByLabel('Auto-Save Location').getAttribute('readonly')).not.toBeNull();
    // Where recordings go is the server's, not the account's: Change says so.
    await page.getByRole('button', { name: 'Change' }).click();
    await toast(
      page,
      'Recordings are saved on this Parley server. Where on it is chosen by whoever runs the server (its DATA_DIR setting), not per account.',
    ).waitFor();

    await choose(page, 'Audio Quality', 'Ultra');
    await choose(page, 'Default File Format', 'WAV');
    await page.getByRole('switch', { name: 'Filler Word Removal' }).click();
    await page.getByRole('button', { name: 'Restore Defaults' }).click();
    await expect.poll(() => combobox(page, 'Audio Quality').textContent()).toBe('High');
    expect(await combobox(page, 'Default File Format').textContent()).toBe('MP3');
    expect(await switchState(page, 'Filler Word Removal')).toBe('false');

    await choose(page, 'Audio Quality', 'Standard');
    await page.getByRole('switch', { name: 'Filler Word Removal' }).click();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toast(page, 'Recording settings saved').waitFor();
    await page.reload();
    await openTab(page, 'Recording');
    await expect.poll(() => combobox(page, 'Audio Quality').textContent()).toBe('Standard');

    const elsewhere = await openTabElsewhere({ email, password: 'centaur1963' }, 'Recording');
    await expect.poll(() => combobox(elsewhere.page, 'Audio Quality').textContent()).toBe('Standard');
    expect(await switchState(elsewhere.page, 'Filler Word Removal')).toBe('true');
    expect(await combobox(elsewhere.page, 'Default File Format').textContent()).toBe('MP3');
    await elsewhere.context.close();
    await context.close();
  });

  it('Recording: what this browser kept before settings moved to the server is carried to the account once', async () => {
    const { context, page, email } = await openSettings({ fullName: 'Mae Jemison', password: 'endeavour92' });
    // As the earlier version of this screen left it: one localStorage entry per tab and account.
    const key = await page.evaluate(() => {
      const session = Object.keys(window.localStorage).find((k) => k.endsWith('-auth-token'));
      const userId = (JSON.parse(window.localStorage.getItem(session ?? '') ?? '{}') as { user?: { id?: string } }).user?.id;
      const entry = `parley:settings:recording:${userId}`;
      window.localStorage.setItem(entry, JSON.stringify({ quality: 'ultra', format: 'wav', aiSummary: false }));
      return entry;
    });
    await page.reload();
    await openTab(page, 'Recording');
    await expect.poll(() => combobox(page, 'Audio Quality').textContent()).toBe('Ultra');
    await expect.poll(() => page.evaluate((k) => window.localStorage.getItem(k), key)).toBeNull();

    const elsewhere = await openTabElsewhere({ email, password: 'endeavour92' }, 'Recording');
    await expect.poll(() => combobox(elsewhere.page, 'Audio Quality').textContent()).toBe('Ultra');
    expect(await combobox(elsewhere.page, 'Default File Format').textContent()).toBe('WAV');
    expect(await switchState(elsewhere.page, 'AI Summary Generation')).toBe('false');
    await elsewhere.context.close();
    await context.close();
  });

  it('Privacy: the spec defaults (auto-delete 90 days), a failed save keeps the choice and says so, Update Privacy Settings stores it, the danger zone asks first', async () => {
    const { context, page, email } = await openSettings({ fullName: 'Evelyn Boyd', password: 'granville1' });
    await openTab(page, 'Privacy');
    expect(await switchState(page, 'Anonymized Feature Usage')).toBe('true');
    expect(await switchState(page, 'Error Reporting')).toBe('true');
    expect(await switchState(page, 'Allow data for AI model improvement')).toBe('false');
    expect(await combobox(page, 'Auto-delete recordings').textContent()).toBe('90 days');
    await page.getByRole('button', { name: 'Request Data Export' }).waitFor();

    // The danger zone asks before it deletes (tests/e2e/account.spec.ts goes through with it); Cancel leaves all as it was.
    await page.getByRole('button', { name: 'Delete Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete account' });
    expect(await dialog.getByRole('button', { name: 'Delete Account' }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Delete All Data' }).click();
    expect(await page.getByRole('dialog', { name: 'Delete all data' }).getByRole('button', { name: 'Delete All Data' }).isDisabled()).toBe(true);
    await page.keyboard.press('Escape');

    await page.getByText('Sample meetings are kept.', { exact: false }).waitFor();

    // The connection drops as the person saves: the choice stays on screen and the toast says why.
    await page.route('**/api/v1/settings/privacy', (route) => route.abort('internetdisconnected'));
    await choose(page, 'Auto-delete recordings', '30 days');
    await page.getByRole('button', { name: 'Update Privacy Settings' }).click();
    await toast(page, 'Your privacy settings could not be saved').filter({ hasText: 'Parley cannot reach its server.' }).waitFor();
    expect(await combobox(page, 'Auto-delete recordings').textContent()).toBe('30 days');
    await page.unroute('**/api/v1/settings/privacy');

    await page.getByRole('button', { name: 'Update Privacy Settings' }).click();
    await toast(page, 'Privacy settings updated').waitFor();
    const elsewhere = await openTabElsewhere({ email, password: 'granville1' }, 'Privacy');
    await expect.poll(() => combobox(elsewhere.page, 'Auto-delete recordings').textContent()).toBe('30 days');
    await elsewhere.context.close();
    await context.close();
  });

  it('Billing: the settings reading of the Pro plan, editable billing details, Save Changes toasts', async () => {
    const { context, page, email } = await openSettings({ fullName: 'Hedy Lamarr', password: 'frequency1' });
    const panel = await openTab(page, 'Billing');
    await panel.getByText('Pro Plan').waitFor();
    await panel.getByText('$29/month per user').waitFor();
    for (const feature of ['Unlimited recordings', 'All AI features', '100GB cloud storage', 'Up to 20 team members']) await panel.getByText(feature).waitFor();
    await panel.getByText('•••• •••• •••• 4242').waitFor();
    for (const button of ['View invoice history', 'Cancel Subscription', 'Upgrade to Enterprise'])
      await panel.getByRole(button === 'Upgrade to Enterprise' ? 'link' : 'button', { name: button }).waitFor();
    expect(await panel.getByLabel('Name', { exact: true }).inputValue()).toBe('Hedy Lamarr');
    expect(await panel.getByLabel('Email', { exact: true }).inputValue()).toBe(email);
    for (const label of ['Company', 'Address', 'City', 'State', 'ZIP Code', 'Country']) await panel.getByLabel(label, { exact: true }).waitFor();
    await panel.getByLabel('Company', { exact: true }).fill('Frequency Hopping Inc.');
    await panel.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Billing information updated').waitFor();
    await page.reload();
    const again = await openTab(page, 'Billing');
    await expect.poll(() => again.getByLabel('Company', { exact: true }).inputValue()).toBe('Frequency Hopping Inc.');

    const elsewhere = await openTabElsewhere({ email, password: 'frequency1' }, 'Billing');
    await expect.poll(() => elsewhere.panel.getByLabel('Company', { exact: true }).inputValue()).toBe('Frequency Hopping Inc.');
    expect(await elsewhere.panel.getByLabel('Name', { exact: true }).inputValue()).toBe('Hedy Lamarr');
    await elsewhere.context.close();
    await context.close();
  });
});
