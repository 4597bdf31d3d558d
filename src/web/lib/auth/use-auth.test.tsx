import { render, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AuthContext, type AuthContextValue } from './auth-context.ts';
import { useAuth } from './use-auth.ts';

describe('useAuth', () => {
  it('outside its provider throws the spec message', () => {
    // React logs the error it rethrows; the assertion is on the message only.
    expect(() => renderHook(() => useAuth())).toThrow('useAuth must be used within an AuthProvider');
  });

  it('inside the provider returns the context', () => {
    const value: AuthContextValue = {
      user: null,
      session: null,
      loading: true,
      signedOutByUser: false,
      clearSignedOutByUser: () => {},
      mfaRequired: false,
      signUp: async () => ({ error: null, session: null }),
      signIn: async () => ({ error: null, mfaRequired: false }),
      verifyMfa: async () => ({ error: null }),
      signOut: async () => ({ error: null }),
    };
    function Probe() {
      return <span>{useAuth().loading ? 'loading' : 'ready'}</span>;
    }
    const { getByText } = render(
      <AuthContext.Provider value={value}>
        <Probe />
      </AuthContext.Provider>,
    );
    expect(getByText('loading')).toBeTruthy();
  });
});
