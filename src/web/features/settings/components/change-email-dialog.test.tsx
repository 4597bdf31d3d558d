import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProfileTab } from './profile-tab.tsx';
import { SignedIn, testUser } from '#tests/support/web/test-auth.tsx';

const toast = vi.hoisted(() => Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('#web/lib/toast.ts', () => ({ toast }));

const updateUser = vi.hoisted(() => vi.fn());
vi.mock('#web/lib/supabase.ts', () => ({ loadSupabase: async () => ({ auth: { updateUser } }) }));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const openDialog = () => {
  fireEvent.click(screen.getByRole('button', { name: 'Change email' }));
  return screen.getByRole('dialog', { name: 'Change your email' });
};

const fill = (dialog: HTMLElement, email: string, password: string) => {
  fireEvent.change(within(dialog).getByLabelText('New email'), { target: { value: email } });
  fireEvent.change(within(dialog).getByLabelText('Current password'), { target: { value: password } });
};

const send = async (dialog: HTMLElement) => {
  await act(async () => {
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send confirmation links' }));
  });
};

describe('Change email (Settings › Profile)', () => {
  it('asks for a new address and the current password before sending anything', async () => {
    render(<ProfileTab />, { wrapper: SignedIn });
    const dialog = openDialog();
    await send(dialog);
    within(dialog).getByText('Enter the new email address.');
    within(dialog).getByText('Enter your current password.');
    fill(dialog, 'ADA@example.com', 'secret12');
    await send(dialog);
    within(dialog).getByText('That is already your email.');
    expect(updateUser).not.toHaveBeenCalled();
  });

  it('sends the change with the current password, then says to check both inboxes', async () => {
    updateUser.mockResolvedValue({ data: { user: {} }, error: null });
    render(<ProfileTab />, { wrapper: SignedIn });
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const dialog = openDialog();
    fill(dialog, ' Countess@Example.com ', 'secret12');
    await send(dialog);
    expect(updateUser).toHaveBeenCalledWith(
      { email: 'countess@example.com', current_password: 'secret12' },
      { emailRedirectTo: `${window.location.origin}/settings` },
    );
    const sent = screen.getByRole('dialog', { name: 'Check both inboxes' });
    within(sent).getByText(
      'We sent a confirmation link to ada@example.com and to countess@example.com. Open both to change your email. If you do not confirm from ada@example.com, nothing changes.',
    );
    // Only the dialog's own request went out: the Personal Information form around its button saved nothing.
    expect(updateUser).toHaveBeenCalledTimes(1);
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('says a wrong password or a taken address at its field, and keeps the dialog open', async () => {
    render(<ProfileTab />, { wrapper: SignedIn });
    const dialog = openDialog();
    updateUser.mockResolvedValueOnce({
      data: { user: null },
      error: { code: 'current_password_invalid', message: 'Current password required when changing email address.' },
    });
    fill(dialog, 'countess@example.com', 'wrong-one');
    await send(dialog);
    within(dialog).getByText('Your current password is not correct. Nothing was changed.');
    expect(within(dialog).getByLabelText('Current password').getAttribute('aria-invalid')).toBe('true');

    updateUser.mockResolvedValueOnce({
      data: { user: null },
      error: { code: 'email_exists', message: 'A user with this email address has already been registered' },
    });
    fill(dialog, 'someone@example.com', 'secret12');
    await send(dialog);
    within(dialog).getByText('An account with this email already exists.');
    expect(screen.queryByRole('dialog', { name: 'Check both inboxes' })).toBeNull();
  });

  it('shows a change waiting for its confirmations under the email', () => {
    const user = { ...testUser(), new_email: 'countess@example.com' } as ReturnType<typeof testUser>;
    render(<ProfileTab />, { wrapper: ({ children }) => <SignedIn user={user}>{children}</SignedIn> });
    screen.getByText('Waiting for confirmation of countess@example.com: open the links sent to both addresses.');
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ada@example.com');
  });
});
