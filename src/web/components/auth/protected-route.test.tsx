import { cleanup, render, screen } from '@testing-library/react';
import type { User } from '@supabase/auth-js';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthContext, type AuthContextValue } from '#web/lib/auth/auth-context.ts';
import { ProtectedRoute } from './protected-route.tsx';

afterEach(cleanup);

function renderGuarded(state: Pick<AuthContextValue, 'user' | 'loading'> & { signedOutByUser?: boolean; clearSignedOutByUser?: () => void }) {
  const value: AuthContextValue = {
    signedOutByUser: false,
    clearSignedOutByUser: () => {},
    mfaRequired: false,
    ...state,
    session: null,
    signUp: async () => ({ error: null, session: null }),
    signIn: async () => ({ error: null, mfaRequired: false }),
    verifyMfa: async () => ({ error: null }),
    signOut: async () => ({ error: null }),
  };
  render(
    <AuthContext.Provider value={value}>
      <MemoryRouter initialEntries={['/settings']}>
        <Routes>
          <Route path="/auth" element={<p>auth page</p>} />
          <Route path="/" element={<p>landing page</p>} />
          <Route
            path="/settings"
            element={
              <ProtectedRoute>
                <p>secret settings</p>
              </ProtectedRoute>
            }
          />
        </Routes>
      </MemoryRouter>
    </AuthContext.Provider>,
  );
}

describe('ProtectedRoute', () => {
  it('shows Loading... while the session is determined', () => {
    renderGuarded({ user: null, loading: true });
    expect(screen.getByText('Loading...')).toBeTruthy();
    expect(screen.queryByText('secret settings')).toBeNull();
  });

  it('sends a signed-out visitor to /auth', () => {
    renderGuarded({ user: null, loading: false });
    expect(screen.getByText('auth page')).toBeTruthy();
  });

  it('sends someone who just signed out to the landing page instead', () => {
    renderGuarded({ user: null, loading: false, signedOutByUser: true });
    expect(screen.getByText('landing page')).toBeTruthy();
  });

  it('forgets the deliberate sign-out only once it has left the guarded page', () => {
    const clearSignedOutByUser = vi.fn();
    renderGuarded({ user: null, loading: false, signedOutByUser: true, clearSignedOutByUser });
    expect(screen.getByText('landing page')).toBeTruthy();
    // Cleared on unmount, not while <Navigate> is on its way to / (an earlier clear would send it to /auth).
    expect(clearSignedOutByUser).toHaveBeenCalledOnce();
  });

  it('shows the content to a signed-in user', () => {
    renderGuarded({ user: { id: 'u1' } as User, loading: false });
    expect(screen.getByText('secret settings')).toBeTruthy();
  });
});
