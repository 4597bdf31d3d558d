import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthContext, type AuthContextValue } from '#web/lib/auth/auth-context.ts';
import { AuthPage } from './auth-page.tsx';
import { stubAppConfig } from '#tests/support/web/app-config.ts';

const toastError = vi.hoisted(() => vi.fn());
vi.mock('#web/lib/toast.ts', () => ({ toast: Object.assign(vi.fn(), { error: toastError, success: vi.fn() }) }));
const resetPasswordForEmail = vi.hoisted(() => vi.fn());
vi.mock('#web/lib/supabase.ts', () => ({ loadSupabase: async () => ({ auth: { resetPasswordForEmail } }) }));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

function renderAuthPage(overrides: Partial<AuthContextValue> = {}, url = '/auth') {
  const value: AuthContextValue = {
    user: null,
    session: null,
    loading: false,
    signedOutByUser: false,
    clearSignedOutByUser: () => {},
    mfaRequired: false,
    signUp: vi.fn(async () => ({ error: null, session: null })),
    signIn: vi.fn(async () => ({ error: null, mfaRequired: false })),
    verifyMfa: async () => ({ error: null }),
    signOut: vi.fn(async () => ({ error: null })),
    ...overrides,
  };
  render(
    <AuthContext.Provider value={value}>
      <MemoryRouter initialEntries={[url]}>
        <AuthPage />
      </MemoryRouter>
    </AuthContext.Provider>,
  );
  return value;
}

/** Radix tabs switch on mouse down (not click), as a pointer does. */
function openSignUpTab() {
  fireEvent.mouseDown(screen.getByRole('tab', { name: 'Sign Up' }), { button: 0 });
  return screen.getByRole('tabpanel', { name: 'Sign Up' });
}

describe('the /auth page', () => {
  it('opens on Sign In, and on Sign Up when Get Started sent the visitor (?tab=signup)', () => {
    renderAuthPage();
    expect(screen.getByRole('tab', { name: 'Sign In' }).getAttribute('aria-selected')).toBe('true');
    cleanup();
    renderAuthPage({}, '/auth?tab=signup');
    expect(screen.getByRole('tab', { name: 'Sign Up' }).getAttribute('aria-selected')).toBe('true');
    expect(within(screen.getByRole('tabpanel', { name: 'Sign Up' })).getByLabelText('Full Name')).toBeTruthy();
  });

  it('Sign Up keeps its trial line and, on a self-hosted installation (/app-config.js), says every feature is included', () => {
    stubAppConfig({ billing: false });
    renderAuthPage({}, '/auth?tab=signup');
    within(screen.getByRole('tabpanel', { name: 'Sign Up' })).getByText(
      'Create your account. Free 14-day trial, no credit card. This installation is self-hosted: every feature is included.',
    );
    cleanup();
    stubAppConfig({ billing: true });
    renderAuthPage({}, '/auth?tab=signup');
    within(screen.getByRole('tabpanel', { name: 'Sign Up' })).getByText('Create your account. Free 14-day trial, no credit card.');
  });

  it('refuses a sign-up password under 6 characters and sends nothing', async () => {
    const auth = renderAuthPage();
    const panel = openSignUpTab();
    fireEvent.change(within(panel).getByLabelText('Full Name'), { target: { value: 'Shorty' } });
    fireEvent.change(within(panel).getByLabelText('Email'), { target: { value: 'short@example.com' } });
    fireEvent.change(within(panel).getByLabelText('Password'), { target: { value: '12345' } });
    await act(async () => {
      fireEvent.click(within(panel).getByRole('button', { name: 'Create Account' }));
    });
    expect(within(panel).getByText('Password must be at least 6 characters long.')).toBeTruthy();
    expect(toastError).toHaveBeenCalledWith('Password must be at least 6 characters long.', expect.anything());
    expect(auth.signUp).not.toHaveBeenCalled();
  });

  it('sends a sign-up with 6 characters, with the full name', async () => {
    const auth = renderAuthPage();
    const panel = openSignUpTab();
    fireEvent.change(within(panel).getByLabelText('Full Name'), { target: { value: ' Ada Lovelace ' } });
    fireEvent.change(within(panel).getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.change(within(panel).getByLabelText('Password'), { target: { value: '123456' } });
    await act(async () => {
      fireEvent.click(within(panel).getByRole('button', { name: 'Create Account' }));
    });
    expect(auth.signUp).toHaveBeenCalledWith({ email: 'ada@example.com', password: '123456', fullName: 'Ada Lovelace' });
  });

  it('shows the spec message for wrong credentials', async () => {
    const signIn = vi.fn(async () => ({ error: { message: 'Invalid login credentials' } as never, mfaRequired: false }));
    renderAuthPage({ signIn });
    const panel = screen.getByRole('tabpanel', { name: 'Sign In' });
    fireEvent.change(within(panel).getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.change(within(panel).getByLabelText('Password'), { target: { value: 'wrong-password' } });
    await act(async () => {
      fireEvent.click(within(panel).getByRole('button', { name: 'Sign In' }));
    });
    expect(signIn).toHaveBeenCalledOnce();
    expect(toastError).toHaveBeenCalledWith('Invalid email or password. Please try again.', expect.anything());
  });

  it('Forgot password? asks for a reset link for the typed email, back to /reset-password, and says when to look', async () => {
    resetPasswordForEmail.mockResolvedValueOnce({ data: {}, error: null });
    renderAuthPage();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Forgot password?' }));
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ada@example.com');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    });
    expect(resetPasswordForEmail).toHaveBeenCalledWith('ada@example.com', { redirectTo: `${window.location.origin}/reset-password` });
    screen.getByText(/Check your email for a link to reset your password\./);

    resetPasswordForEmail.mockResolvedValueOnce({ data: null, error: { status: 429, message: 'For security purposes…' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    });
    expect(toastError).toHaveBeenCalledWith('A reset link was sent a moment ago. Please wait a minute before asking for another.');
    fireEvent.click(screen.getByRole('button', { name: 'Back to Sign In' }));
    screen.getByRole('button', { name: 'Sign In' });
  });
});
