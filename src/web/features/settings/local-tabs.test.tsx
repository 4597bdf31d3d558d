import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BillingTab } from './billing-tab.tsx';
import { NotificationsTab } from './notifications-tab.tsx';
import { PrivacyTab } from './privacy-tab.tsx';
import { RecordingTab } from './recording-tab.tsx';
import { storageKey } from './stored-settings.ts';
import { SignedIn } from './test-auth.tsx';

const toast = vi.hoisted(() => Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('sonner', () => ({ toast }));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  window.localStorage.clear();
});

const checked = (name: string) => screen.getByRole('switch', { name }).getAttribute('aria-checked');
const stored = (tab: string): unknown => JSON.parse(window.localStorage.getItem(storageKey(tab, 'user-1')) ?? 'null');

describe('the browser-stored settings tabs', () => {
  it('Notifications: every toggle is labelled, with the spec defaults; Save Preferences stores and toasts', () => {
    render(<NotificationsTab />, { wrapper: SignedIn });
    expect(checked('Team Activity')).toBe('false');
    for (const name of ['Meeting Reminders', 'Transcription Complete', 'AI Insights Ready', 'Product Updates', 'Action Items', 'Mentions', 'Team Invitations']) {
      expect(checked(name)).toBe('true');
    }
    fireEvent.click(screen.getByRole('switch', { name: 'Team Activity' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save Preferences' }));
    expect(toast.success).toHaveBeenCalledWith('Notification preferences saved');
    expect(stored('notifications')).toMatchObject({ teamActivity: true });
  });

  it('Recording: Restore Defaults resets the tab (high, mp3, filler words off); Save Settings toasts', () => {
    window.localStorage.setItem(storageKey('recording', 'user-1'), JSON.stringify({ quality: 'ultra', format: 'aac', fillerWordRemoval: true }));
    render(<RecordingTab />, { wrapper: SignedIn });
    expect(screen.getByRole('combobox', { name: 'Audio Quality' }).textContent).toBe('Ultra');
    expect(screen.getByRole('combobox', { name: 'Default File Format' }).textContent).toBe('AAC');
    fireEvent.click(screen.getByRole('button', { name: 'Restore Defaults' }));
    expect(screen.getByRole('combobox', { name: 'Audio Quality' }).textContent).toBe('High');
    expect(screen.getByRole('combobox', { name: 'Default File Format' }).textContent).toBe('MP3');
    expect(checked('Filler Word Removal')).toBe('false');
    fireEvent.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(toast.success).toHaveBeenCalledWith('Recording settings saved');
    expect(stored('recording')).toMatchObject({ quality: 'high', format: 'mp3', fillerWordRemoval: false });
  });

  it('Privacy: auto-delete defaults to 90 days; Update Privacy Settings toasts; Delete Account fakes nothing', () => {
    render(<PrivacyTab />, { wrapper: SignedIn });
    expect(screen.getByRole('combobox', { name: 'Auto-delete recordings' }).textContent).toBe('90 days');
    expect(checked('Allow data for AI model improvement')).toBe('false');
    fireEvent.click(screen.getByRole('button', { name: 'Update Privacy Settings' }));
    expect(toast.success).toHaveBeenCalledWith('Privacy settings updated');
    fireEvent.click(screen.getByRole('button', { name: 'Delete Account' }));
    expect(screen.getByRole('dialog').textContent).toContain('Nothing has been deleted.');
  });

  it('Billing: starts from the account name and email; Save Changes toasts', () => {
    render(<BillingTab />, { wrapper: SignedIn });
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Ada Lovelace');
    fireEvent.change(screen.getByLabelText('ZIP Code'), { target: { value: '94105' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(toast.success).toHaveBeenCalledWith('Billing information updated');
    expect(stored('billing')).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', zip: '94105' });
  });

  it('says so when the browser refuses to store', () => {
    const setItem = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    render(<NotificationsTab />, { wrapper: SignedIn });
    fireEvent.click(screen.getByRole('button', { name: 'Save Preferences' }));
    expect(toast.success).not.toHaveBeenCalled();
    expect(toast.error).toHaveBeenCalledWith('This browser refused to store your settings', expect.anything());
    setItem.mockRestore();
  });
});
