import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProfileTab } from './profile-tab.tsx';
import { SignedIn } from '#tests/support/web/test-auth.tsx';

const toast = vi.hoisted(() => Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('#web/lib/toast.ts', () => ({ toast }));

const updateUser = vi.hoisted(() => vi.fn());
vi.mock('#web/lib/supabase.ts', () => ({ loadSupabase: async () => ({ auth: { updateUser } }) }));

// A browser in Los Angeles: an account that never chose a zone shows the browser's.
const resolvedOptions = Intl.DateTimeFormat.prototype.resolvedOptions;
beforeEach(() => {
  vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (this: Intl.DateTimeFormat) {
    return { ...resolvedOptions.call(this), timeZone: 'America/Los_Angeles' };
  });
});

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.restoreAllMocks();
});

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('Personal Information', () => {
  it('is read-only until Edit, with the browser’s zone (here Pacific Time) until one is chosen', () => {
    render(<ProfileTab />, { wrapper: SignedIn });
    expect(field('First name').value).toBe('Ada');
    expect(field('Last name').value).toBe('Lovelace');
    expect(field('First name').readOnly).toBe(true);
    expect(screen.getByRole('combobox', { name: 'Timezone' }).textContent).toBe('Pacific Time');
    expect(screen.queryByRole('button', { name: 'Save Changes' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Change' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    expect(field('First name').readOnly).toBe(false);
    expect(field('Email').readOnly).toBe(true);
    screen.getByRole('button', { name: 'Change' });
    screen.getByRole('button', { name: 'Done' });
  });

  it('Cancel and Done drop unsaved edits and send nothing', () => {
    render(<ProfileTab />, { wrapper: SignedIn });
    for (const leave of ['Cancel', 'Done']) {
      fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
      fireEvent.change(field('First name'), { target: { value: 'Nobody' } });
      fireEvent.click(screen.getByRole('button', { name: leave }));
      expect(field('First name').value).toBe('Ada');
    }
    expect(updateUser).not.toHaveBeenCalled();
  });

  it('Save Changes writes user_metadata and shows the spec toast', async () => {
    updateUser.mockResolvedValue({ data: { user: {} }, error: null });
    render(<ProfileTab />, { wrapper: SignedIn });
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    fireEvent.change(field('First name'), { target: { value: 'Augusta' } });
    fireEvent.change(field('Last name'), { target: { value: 'King' } });
    fireEvent.change(field('Job Title'), { target: { value: 'Analyst' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    });
    expect(updateUser).toHaveBeenCalledWith({
      data: { full_name: 'Augusta King', first_name: 'Augusta', last_name: 'King', job_title: 'Analyst', location: '', timezone: 'america-los_angeles' },
    });
    expect(toast.success).toHaveBeenCalledWith('Profile updated successfully', { description: 'Your changes have been saved.' });
    screen.getByRole('button', { name: 'Edit' });
  });

  it('a refused save stays in edit mode and says why', async () => {
    updateUser.mockResolvedValue({ data: { user: null }, error: { message: 'Request rate limit reached' } });
    render(<ProfileTab />, { wrapper: SignedIn });
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    });
    expect(toast.error).toHaveBeenCalledWith('Your profile could not be saved', { description: 'Request rate limit reached' });
    expect(toast.success).not.toHaveBeenCalled();
    screen.getByRole('button', { name: 'Save Changes' });
  });
});

describe('Account Security', () => {
  const submit = async (newPassword: string, confirm: string, current = 'old-secret') => {
    fireEvent.change(field('Current password'), { target: { value: current } });
    fireEvent.change(field('New password'), { target: { value: newPassword } });
    fireEvent.change(field('Confirm new password'), { target: { value: confirm } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    });
  };

  it('asks for 6 characters and matching fields before sending anything', async () => {
    render(<ProfileTab />, { wrapper: SignedIn });
    await submit('123456', '123456', '');
    screen.getByText('Enter your current password.');
    await submit('12345', '12345');
    screen.getByText('Password must be at least 6 characters long.');
    await submit('123456', '1234567');
    screen.getByText('Passwords do not match.');
    expect(field('Confirm new password').getAttribute('aria-invalid')).toBe('true');
    expect(updateUser).not.toHaveBeenCalled();
  });

  it('sends the new password and words the same_password refusal', async () => {
    updateUser.mockResolvedValueOnce({ data: { user: null }, error: { code: 'same_password', message: 'whatever the server says' } });
    render(<ProfileTab />, { wrapper: SignedIn });
    await submit('secret123', 'secret123');
    expect(updateUser).toHaveBeenCalledWith({ password: 'secret123', current_password: 'old-secret' });
    expect(toast.error).toHaveBeenCalledWith('New password should be different from the old password.');
    screen.getByText('New password should be different from the old password.');

    updateUser.mockResolvedValueOnce({ data: { user: {} }, error: null });
    await submit('secret1234', 'secret1234');
    expect(toast.success).toHaveBeenCalledWith('Password updated', expect.anything());
    expect(field('New password').value).toBe('');
    expect(field('Current password').value).toBe('');
  });

  it('a wrong current password is said at that field, and nothing else is changed', async () => {
    updateUser.mockResolvedValueOnce({
      data: { user: null },
      error: { code: 'current_password_invalid', message: 'Current password required when setting new password.' },
    });
    render(<ProfileTab />, { wrapper: SignedIn });
    await submit('secret123', 'secret123', 'wrong-one');
    expect(toast.error).toHaveBeenCalledWith('Your current password is not correct. Nothing was changed.');
    expect(field('Current password').getAttribute('aria-invalid')).toBe('true');
    expect(field('New password').value).toBe('secret123');
  });
});

describe('Connected Accounts', () => {
  it('lists the three services the spec names, each with what it does', () => {
    render(<ProfileTab />, { wrapper: SignedIn });
    for (const [name, what] of [
      ['Microsoft Teams', 'Sync meeting recordings'],
      ['Google Calendar', 'Schedule and record from calendar'],
      ['Slack', 'Share insights and transcripts'],
    ]) {
      expect(screen.getByText(name!)).toBeTruthy();
      expect(screen.getByText(what!)).toBeTruthy();
    }
  });
});
