import type { User } from '@supabase/auth-js';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProtectedRoute } from '#web/components/auth/protected-route.tsx';
import { AuthContext, type AuthContextValue } from '#web/lib/auth/auth-context.ts';
import { AuthPage } from './auth-page.tsx';

// The MFA challenge after a password sign-in: an account with an authenticator app is asked for its
// code on /auth, and the signed-in pages send it back there until the code is accepted.

const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn() }));
vi.mock('#web/lib/toast.ts', () => ({ toast: Object.assign(vi.fn(), toast) }));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const ada = { id: 'user-1', email: 'ada@example.com', user_metadata: {} } as unknown as User;

function renderAt(path: string, overrides: Partial<AuthContextValue>) {
  const value: AuthContextValue = {
    user: ada,
    session: null,
    loading: false,
    signedOutByUser: false,
    clearSignedOutByUser: () => {},
    mfaRequired: true,
    signUp: vi.fn(async () => ({ error: null, session: null })),
    signIn: vi.fn(async () => ({ error: null, mfaRequired: true })),
    verifyMfa: vi.fn(async () => ({ error: null })),
    signOut: vi.fn(async () => ({ error: null })),
    ...overrides,
  };
  const view = (auth: AuthContextValue) => (
    <AuthContext.Provider value={auth}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/auth" element={<AuthPage />} />
          <Route
            path="/dashboard"
            element={
              <ProtectedRoute>
                <p>Dashboard content</p>
              </ProtectedRoute>
            }
          />
        </Routes>
      </MemoryRouter>
    </AuthContext.Provider>
  );
  const { rerender } = render(view(value));
  return { value, update: (changes: Partial<AuthContextValue>) => rerender(view({ ...value, ...changes })) };
}

async function submitCode(code: string) {
  fireEvent.change(screen.getByLabelText('Authentication code'), { target: { value: code } });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
  });
}

describe('the MFA challenge', () => {
  it('a signed-in page sends a session that owes its code to /auth, which asks for the code and nothing else', () => {
    renderAt('/dashboard', {});
    expect(screen.queryByText('Dashboard content')).toBeNull();
    expect(screen.getByText('Two-factor verification')).toBeTruthy();
    expect(screen.getByText('Enter the 6-digit code from your authenticator app.')).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Sign In' })).toBeNull();
  });

  it('a wrong code shows why and stays; the right one (spaces allowed) welcomes the person to the dashboard', async () => {
    const verifyMfa = vi.fn<AuthContextValue['verifyMfa']>().mockResolvedValueOnce({ error: { message: 'Invalid TOTP code entered' } });
    const { update } = renderAt('/auth', { verifyMfa });
    await submitCode('000000');
    expect(screen.getByRole('alert').textContent).toBe('Invalid code. Please try again.');
    expect(toast.error).toHaveBeenCalledWith('Invalid code. Please try again.', expect.anything());

    verifyMfa.mockResolvedValueOnce({ error: null });
    await submitCode('123 456');
    expect(verifyMfa).toHaveBeenLastCalledWith('123456');
    expect(toast.success).toHaveBeenCalledWith('Welcome back!', expect.anything());
    // The session is now aal2: the provider says so and the dashboard opens.
    update({ mfaRequired: false });
    expect(screen.getByText('Dashboard content')).toBeTruthy();
  });

  it('after a password sign-in that needs the code, the sign-in form neither welcomes nor leaves, and the prompt takes over', async () => {
    const signIn = vi.fn(async () => ({ error: null, mfaRequired: true }));
    const { update } = renderAt('/auth', { user: null, mfaRequired: false, signIn });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret12' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    });
    expect(signIn).toHaveBeenCalledOnce();
    expect(toast.success).not.toHaveBeenCalled();
    update({ user: ada, mfaRequired: true });
    expect(screen.getByLabelText('Authentication code')).toBeTruthy();
    expect(screen.queryByText('Dashboard content')).toBeNull();
  });

  it('offers a way out: Sign out', async () => {
    const { value } = renderAt('/auth', {});
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    });
    expect(value.signOut).toHaveBeenCalledOnce();
  });
});
