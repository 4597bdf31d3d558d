import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BillingOverview } from '#shared/contracts/billing.ts';
import { BillingTab } from './billing-tab.tsx';
import { NotificationsTab } from './notifications-tab.tsx';
import { PrivacyTab } from './privacy-tab.tsx';
import { RecordingTab } from './recording-tab.tsx';
import { SignedIn } from '#tests/support/web/test-auth.tsx';
import { installSettingsServer } from '#tests/support/web/settings-server.ts';
import { stubAppConfig } from '#tests/support/web/app-config.ts';
import { overviewPlan } from '#tests/support/web/billing-plans.ts';

const toast = vi.hoisted(() => Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('#web/lib/toast.ts', () => ({ toast }));
vi.mock('#web/lib/supabase.ts', () => ({
  loadSupabase: async () => ({ auth: { getSession: async () => ({ data: { session: { access_token: 'token-1' } } }) } }),
}));

let server: ReturnType<typeof installSettingsServer>;
beforeEach(() => {
  server = installSettingsServer();
});
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

const checked = (name: string) => screen.getByRole('switch', { name }).getAttribute('aria-checked');
const puts = () => server.requests.filter((r) => r.method === 'PUT');
const click = async (name: string) => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
  });
};

describe('the settings tabs, saved to the account', () => {
  it('Notifications: loads the spec defaults from the server; Save Preferences sends the change and toasts', async () => {
    render(<NotificationsTab />, { wrapper: SignedIn });
    expect(screen.getByRole('status').textContent).toBe('Loading your settings…');
    await screen.findByRole('switch', { name: 'Team Activity' });
    expect(checked('Team Activity')).toBe('false');
    for (const name of [
      'Meeting Reminders',
      'Transcription Complete',
      'AI Insights Ready',
      'Product Updates',
      'Action Items',
      'Mentions',
      'Team Invitations',
    ]) {
      expect(checked(name), name).toBe('true');
    }
    // Meeting Reminders says what it sends, and that nothing goes without a connected calendar.
    const reminders = screen.getByRole('switch', { name: 'Meeting Reminders' });
    expect(document.getElementById(reminders.getAttribute('aria-describedby')!)?.textContent).toBe(
      'An email 10 minutes before each event of your connected calendar, with its time, attendees and a Record link. Without a calendar connected (Profile › Connected Accounts), none are sent.',
    );
    fireEvent.click(screen.getByRole('switch', { name: 'Team Activity' }));
    await click('Save Preferences');
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Notification preferences saved'));
    expect(puts()).toEqual([{ method: 'PUT', path: '/api/v1/settings/notifications', body: { teamActivity: true }, authorization: 'Bearer token-1' }]);
    expect(server.stored().notifications).toMatchObject({ teamActivity: true, mentions: true });
    expect(checked('Team Activity')).toBe('true');
  });

  it('Recording: shows what the server has; Restore Defaults resets the form (high, mp3, filler words off) and Save Settings stores it', async () => {
    server.seed({ recording: { quality: 'ultra', format: 'aac', fillerWordRemoval: true } });
    render(<RecordingTab />, { wrapper: SignedIn });
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Audio Quality' }).textContent).toBe('Ultra'));
    expect(screen.getByRole('combobox', { name: 'Default File Format' }).textContent).toBe('AAC');
    expect(checked('Filler Word Removal')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Restore Defaults' }));
    expect(screen.getByRole('combobox', { name: 'Audio Quality' }).textContent).toBe('High');
    expect(screen.getByRole('combobox', { name: 'Default File Format' }).textContent).toBe('MP3');
    expect(checked('Filler Word Removal')).toBe('false');
    expect(puts()).toHaveLength(0); // Restore Defaults alone saves nothing
    await click('Save Settings');
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Recording settings saved'));
    expect(server.stored().recording).toEqual({
      quality: 'high',
      format: 'mp3',
      speakerDiarization: true,
      automaticPunctuation: true,
      fillerWordRemoval: false,
      aiSummary: true,
    });
  });

  it('Privacy: auto-delete defaults to 90 days and says what it does; Update Privacy Settings toasts; Delete Account asks for the email and the password first', async () => {
    render(<PrivacyTab />, { wrapper: SignedIn });
    const select = await screen.findByRole('combobox', { name: 'Auto-delete recordings' });
    expect(select.textContent).toBe('90 days');
    expect(select.getAttribute('aria-describedby')).toBe('auto-delete-description');
    expect(document.getElementById('auto-delete-description')?.textContent).toContain('Sample meetings are kept.');
    expect(checked('Allow data for AI model improvement')).toBe('false');
    fireEvent.click(screen.getByRole('switch', { name: 'Error Reporting' }));
    await click('Update Privacy Settings');
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Privacy settings updated'));
    expect(server.stored().privacy).toMatchObject({ errorReporting: false, autoDelete: '90days' });
    // The danger zone asks for the account's email (and for the account, the password) before it can go ahead.
    fireEvent.click(screen.getByRole('button', { name: 'Delete Account' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('It cannot be undone.');
    const confirm = () => within(dialog).getByRole('button', { name: 'Delete Account' }) as HTMLButtonElement;
    expect(confirm().disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText(/to confirm/), { target: { value: 'ADA@example.com ' } });
    expect(confirm().disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Your password'), { target: { value: 'secret12' } });
    expect(confirm().disabled).toBe(false);
    expect(server.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
  });

  it('Billing: starts from the account name and email the server answers; Save Changes stores and toasts', async () => {
    render(<BillingTab />, { wrapper: SignedIn });
    await waitFor(() => expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Ada Lovelace'));
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ada@example.com');
    fireEvent.change(screen.getByLabelText('ZIP Code'), { target: { value: '94105' } });
    await click('Save Changes');
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Billing information updated'));
    expect(puts()[0]?.body).toEqual({ zip: '94105' });
    expect(server.stored().billing).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', zip: '94105' });
  });
});

/** What a switch's screen reader hears after its name: its description, then what it does here. */
const describedAs = (name: string) =>
  (screen.getByRole('switch', { name }).getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ');

describe('what Billing and Privacy say about this installation (/app-config.js)', () => {
  it('Billing, self-hosted: says every feature is included, and that the sample date and the billing details bill nothing', async () => {
    stubAppConfig({ billing: false });
    render(<BillingTab />, { wrapper: SignedIn });
    await screen.findByLabelText('ZIP Code');
    expect(screen.getByTestId('self-hosted-note').textContent).toBe(
      'This installation is self-hosted: every feature is included. The plans are not sold here: no plan limits apply and nothing is billed.',
    );
    // The spec's texts stay, with what is true beside them.
    screen.getByText('Subscription Plan');
    screen.getByText('Your next billing date is January 1, 2027. Sample date: nothing is billed on this installation.');
    screen.getByText(
      'Saved to your account only: no payment provider is connected to this installation, so these details are not used for billing and go nowhere else.',
    );
    for (const button of ['View invoice history', 'Cancel Subscription', 'Save Changes']) screen.getByRole('button', { name: button });
    screen.getByRole('link', { name: 'Upgrade to Enterprise' });
  });

  it("Billing, self-hosted: this month's usage as the server counts it, with no limit", async () => {
    stubAppConfig({ billing: false });
    server.setBilling({
      billing: false,
      plan: null,
      subscription: null,
      trialAvailable: false,
      paymentFailure: null,
      usage: { hoursThisMonth: 6.5, meetingsThisMonth: 3, periodStart: '2026-12-01T00:00:00.000Z', periodEnd: '2027-01-01T00:00:00.000Z', hiddenMeetings: 0 },
    });
    render(<BillingTab />, { wrapper: SignedIn });
    const card = within(await screen.findByTestId('plan-usage'));
    card.getByText('No plan limits apply to your account on this installation.');
    card.getByText('Transcription in December 2026');
    card.getByText('6.5 hours');
    card.getByText('3');
    expect(card.queryByRole('progressbar')).toBeNull();
    screen.getByTestId('self-hosted-note');
  });

  it('Billing, an account the administrator put on Free: its plan, limits and usage, and no claim that everything is included', async () => {
    stubAppConfig({ billing: false });
    server.setBilling({
      billing: false,
      plan: overviewPlan('free', 'administrator'),
      subscription: null,
      trialAvailable: false,
      paymentFailure: null,
      usage: { hoursThisMonth: 4, meetingsThisMonth: 2, periodStart: '2026-12-01T00:00:00.000Z', periodEnd: '2027-01-01T00:00:00.000Z', hiddenMeetings: 3 },
    });
    render(<BillingTab />, { wrapper: SignedIn });
    const card = within(await screen.findByTestId('plan-usage'));
    card.getByText('Your account is on the Free plan, set by the administrator of this installation. Its limits apply to you:');
    for (const line of [
      '5 hours transcription per month',
      '2 participants per meeting',
      'Export as text',
      '7-day history',
      'No real-time transcription',
      'No API access',
      'No team management',
      'No custom vocabulary',
    ])
      card.getByText(line);
    card.getByText('4 of 5 hours');
    expect(card.getByRole('progressbar', { name: 'Transcription hours used this month' }).getAttribute('aria-valuenow')).toBe('80');
    card.getByText("3 meetings are older than your plan's 7-day history: hidden, not deleted, and back with a longer history.");
    expect(screen.queryByTestId('self-hosted-note')).toBeNull();
  });

  /** An account on Free on an installation that bills through Stripe, its trial still to take. */
  const usage = {
    hoursThisMonth: 1,
    meetingsThisMonth: 1,
    periodStart: '2026-12-01T00:00:00.000Z',
    periodEnd: '2027-01-01T00:00:00.000Z',
    hiddenMeetings: 0,
  };
  const free = overviewPlan('free', 'default');
  const onFree: BillingOverview = {
    billing: true,
    plan: free,
    subscription: null,
    trialAvailable: true,
    paymentFailure: null,
    usage,
  };

  it('Billing through Stripe: the trial to start while on Free, then the subscription as it stands, with its buttons', async () => {
    stubAppConfig({ billing: true });
    server.setBilling({
      billing: true,
      plan: free,
      subscription: null,
      trialAvailable: true,
      paymentFailure: null,
      usage,
    });
    render(<BillingTab />, { wrapper: SignedIn });
    await screen.findByText('You are on the Free plan: subscribe to Pro or Business below.');
    screen.getByRole('button', { name: 'Start 14-day free trial of Pro' });
    screen.getByRole('button', { name: 'Start 14-day free trial of Business' });
    expect(screen.queryByRole('button', { name: 'Cancel Subscription' })).toBeNull();
    cleanup();

    server.setBilling({
      billing: true,
      plan: overviewPlan('pro', 'subscription'),
      subscription: {
        plan: 'pro',
        planName: 'Pro',
        status: 'trialing',
        trialEndsAt: '2026-12-21T12:00:00.000Z',
        currentPeriodEnd: '2026-12-21T12:00:00.000Z',
        cancelAtPeriodEnd: false,
        keptPlan: null,
      },
      trialAvailable: false,
      paymentFailure: null,
      usage,
    });
    render(<BillingTab />, { wrapper: SignedIn });
    await screen.findByText('Your free trial of Pro ends on December 21, 2026. Add a card under View invoice history to keep it; without one it ends then.');
    screen.getByText('Pro Plan');
    screen.getByText('$12.99/month');
    for (const button of ['Upgrade to Business', 'View invoice history', 'Cancel Subscription']) screen.getByRole('button', { name: button });
    screen.getByRole('link', { name: 'Upgrade to Enterprise' });
    expect(screen.queryByTestId('self-hosted-note')).toBeNull();
  });

  it('Billing through Stripe, while the plan is read: says it is loading, never the self-hosted sample', async () => {
    stubAppConfig({ billing: true });
    server.setBilling(onFree);
    const release = server.holdBilling();
    render(<BillingTab />, { wrapper: SignedIn });
    const loading = screen.getByText('Subscription Plan').closest('[data-slot="card"]') as HTMLElement;
    expect(within(loading).getByRole('status').textContent).toBe('Loading your settings…');
    expect(screen.queryByTestId('self-hosted-note')).toBeNull();
    expect(screen.queryByRole('button', { name: 'View invoice history' })).toBeNull();
    await act(async () => release());
    await screen.findByText('You are on the Free plan: subscribe to Pro or Business below.');
    expect(screen.queryByText('Loading your settings…')).toBeNull();
  });

  it('Billing shows an invoice whose payment failed, and what paying it does while the subscription lives and once it has ended', async () => {
    stubAppConfig({ billing: true });
    const pro = overviewPlan('pro', 'subscription');
    const subscription = {
      plan: 'pro',
      planName: 'Pro',
      status: 'past_due',
      trialEndsAt: null,
      currentPeriodEnd: '2027-01-05T12:00:00.000Z',
      cancelAtPeriodEnd: false,
      keptPlan: null,
    } as const;
    const failure = { amountDue: 1299, currency: 'usd', attempts: 2, failedAt: '2026-12-05T12:00:00.000Z', nextAttemptAt: '2026-12-10T12:00:00.000Z' };
    const overview = (next: Pick<BillingOverview, 'plan' | 'subscription' | 'paymentFailure'>): BillingOverview => ({
      billing: true,
      trialAvailable: false,
      usage,
      ...next,
    });
    const alertText = async () => (await screen.findByRole('alert')).textContent;

    // Past due, Stripe retrying: the plan is kept meanwhile.
    server.setBilling(overview({ plan: pro, subscription, paymentFailure: failure }));
    render(<BillingTab />, { wrapper: SignedIn });
    expect(await alertText()).toBe(
      'Your payment of $12.99 did not go through (tried 2 times since December 5, 2026). Stripe will try again on December 10, 2026.' +
        'Update your card or pay the invoice in the billing portal.' +
        'Update payment method',
    );
    await act(async () => {
      fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Update payment method' }));
    });
    await waitFor(() => expect(server.requests.map((r) => `${r.method} ${r.path}`)).toContain('POST /api/v1/billing/portal'));
    cleanup();

    // Stripe's tries used up, the subscription still past due: paying keeps the plan.
    server.setBilling(overview({ plan: pro, subscription, paymentFailure: { ...failure, attempts: 4, nextAttemptAt: null } }));
    render(<BillingTab />, { wrapper: SignedIn });
    expect(await alertText()).toContain(
      'Your payment of $12.99 did not go through (tried 4 times since December 5, 2026). Stripe will not try again: pay the invoice in the billing portal to keep your plan.',
    );
    cleanup();

    // The subscription ended with its invoice still open: the account is on Free, and paying keeps no plan.
    server.setBilling(
      overview({ plan: free, subscription: { ...subscription, status: 'canceled' }, paymentFailure: { ...failure, attempts: 4, nextAttemptAt: null } }),
    );
    render(<BillingTab />, { wrapper: SignedIn });
    expect(await alertText()).toBe(
      'Your payment of $12.99 did not go through (tried 4 times since December 5, 2026). Your subscription has ended, but the invoice is still open: pay it in the billing portal.' +
        'Update payment method',
    );
    screen.getByText('You are on the Free plan: subscribe to Pro or Business below.');
  });

  it('Billing, on an installation that bills: no self-hosted statement, and the details are saved to the account', async () => {
    stubAppConfig({ billing: true });
    render(<BillingTab />, { wrapper: SignedIn });
    await screen.findByLabelText('ZIP Code');
    expect(screen.queryByTestId('self-hosted-note')).toBeNull();
    screen.getByText('Your next billing date is January 1, 2027.');
    screen.getByText('Saved to your account.');
  });

  it('Privacy, self-hosted: under each switch, that nothing is collected here; the switches still store the choice', async () => {
    stubAppConfig({ errorReporting: false, usageAnalytics: false });
    render(<PrivacyTab />, { wrapper: SignedIn });
    await screen.findByRole('switch', { name: 'Error Reporting' });
    screen.getByText('Saved to your account. This installation sends no usage data or error reports anywhere.');
    expect(describedAs('Anonymized Feature Usage')).toBe(
      'Share which features you use, without your name or content. Nothing is collected on this installation: it sends no usage data anywhere.',
    );
    expect(describedAs('Error Reporting')).toBe(
      'Send error details when something goes wrong. Nothing is collected on this installation: it sends no error reports anywhere.',
    );
    expect(describedAs('Allow data for AI model improvement')).toBe(
      'Let this installation learn from your corrections (speaker names, custom vocabulary, voice profiles). None of it leaves the server. Nothing is learned on this installation yet: it does not learn from your corrections, and no recording or transcript is used to improve any model.',
    );
    for (const name of ['Anonymized Feature Usage', 'Error Reporting', 'Allow data for AI model improvement']) {
      fireEvent.click(screen.getByRole('switch', { name }));
    }
    await click('Update Privacy Settings');
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Privacy settings updated'));
    expect(server.stored().privacy).toMatchObject({ anonymizedUsage: false, errorReporting: false, aiImprovement: true });
  });

  it('Privacy, with an error-reporting service configured: that switch says where its reports go, and the card no longer says nothing is sent', async () => {
    stubAppConfig({ errorReporting: true, errorReportingHost: 'glitchtip.example.com' });
    render(<PrivacyTab />, { wrapper: SignedIn });
    await screen.findByRole('switch', { name: 'Error Reporting' });
    screen.getByText('Saved to your account.');
    expect(screen.queryByText(/sends no usage data or error reports anywhere/)).toBeNull();
    expect(describedAs('Error Reporting')).toBe(
      'Send error details when something goes wrong. While this is on, this installation sends details of the errors you run into, in the app and on the server (with email addresses, tokens and ids removed), to the error-reporting service its operator set up, at glitchtip.example.com.',
    );
    expect(describedAs('Anonymized Feature Usage')).toContain('Nothing is collected on this installation: it sends no usage data anywhere.');
  });

  it('Privacy, with a usage collector configured: that switch names it and says what is sent; model improvement still learns nothing', async () => {
    stubAppConfig({ usageAnalytics: true, usageAnalyticsHost: 'otel.example.com:4318' });
    render(<PrivacyTab />, { wrapper: SignedIn });
    await screen.findByRole('switch', { name: 'Anonymized Feature Usage' });
    screen.getByText('Saved to your account.');
    expect(describedAs('Anonymized Feature Usage')).toBe(
      'Share which features you use, without your name or content. While this is on, this installation sends which features you use (the kind of request only: never your name, ids or content) to the usage service its operator set up, at otel.example.com:4318.',
    );
    expect(describedAs('Error Reporting')).toContain('Nothing is collected on this installation: it sends no error reports anywhere.');
    expect(describedAs('Allow data for AI model improvement')).toContain('Nothing is learned on this installation yet');
  });
});

describe('when the server does not cooperate', () => {
  it('a failed save says so with the reason, keeps the edits, and saving again works', async () => {
    render(<NotificationsTab />, { wrapper: SignedIn });
    fireEvent.click(await screen.findByRole('switch', { name: 'Mentions' }));
    server.failNext({ status: 500 });
    await click('Save Preferences');
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Your notification preferences could not be saved', {
        description: 'Something went wrong on our side. Please try again.',
      }),
    );
    expect(toast.success).not.toHaveBeenCalled();
    expect(checked('Mentions')).toBe('false'); // the edit is still on screen
    expect(server.stored()).toEqual({});

    await click('Save Preferences');
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Notification preferences saved'));
    expect(server.stored().notifications).toMatchObject({ mentions: false });
  });

  it('without a connection, the error says the server could not be reached', async () => {
    render(<RecordingTab />, { wrapper: SignedIn });
    fireEvent.click(await screen.findByRole('switch', { name: 'AI Summary Generation' }));
    server.failNext('offline');
    await click('Save Settings');
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Your recording settings could not be saved', {
        description: 'Parley cannot reach its server. Check your connection and try again.',
      }),
    );
    expect(checked('AI Summary Generation')).toBe('false');
  });

  it('while saving, the button is busy; edits made meanwhile stay after the save lands', async () => {
    render(<PrivacyTab />, { wrapper: SignedIn });
    fireEvent.click(await screen.findByRole('switch', { name: 'Anonymized Feature Usage' }));
    const release = server.hold();
    await click('Update Privacy Settings');
    const button = screen.getByRole('button', { name: 'Update Privacy Settings' }) as HTMLButtonElement;
    await waitFor(() => expect(button.disabled).toBe(true));
    fireEvent.click(screen.getByRole('switch', { name: 'Error Reporting' }));
    await act(async () => release());
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Privacy settings updated'));
    expect(button.disabled).toBe(false);
    expect(server.stored().privacy).toMatchObject({ anonymizedUsage: false, errorReporting: true });
    expect(checked('Anonymized Feature Usage')).toBe('false');
    expect(checked('Error Reporting')).toBe('false'); // not yet saved, still shown
  });

  it('settings that cannot be loaded say so, and Try again loads them', async () => {
    server.failNext({ status: 503, body: { error: { code: 'INTERNAL', message: 'The database is not answering.' } } });
    render(<BillingTab />, { wrapper: SignedIn });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Your settings could not be loaded. The database is not answering.');
    expect(screen.queryByRole('button', { name: 'Save Changes' })).toBeNull();
    await click('Try again');
    await waitFor(() => expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Ada Lovelace'));
  });

  it('an answer that is not settings is refused instead of filling the form', async () => {
    server.failNext({ status: 200, body: { settings: { recording: 'ultra' } } });
    render(<RecordingTab />, { wrapper: SignedIn });
    expect((await screen.findByRole('alert')).textContent).toContain('The server answered with settings this page cannot read.');
    expect(screen.queryByRole('combobox', { name: 'Audio Quality' })).toBeNull();
  });
});
