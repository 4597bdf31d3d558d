import type { Session } from '@supabase/auth-js';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider } from './auth-provider.tsx';
import { useAuth } from './use-auth.ts';
import type { SupabaseAuth } from '#web/lib/supabase.ts';

afterEach(cleanup);

type Listener = (event: string, session: Session | null) => void;

/** The auth client as the provider uses it: a stored session (none), auth events, MFA level, sign-out. */
function fakeClient() {
  let listener: Listener | undefined;
  const calls: string[] = [];
  const client = {
    auth: {
      onAuthStateChange: (callback: Listener) => {
        listener = callback;
        return { data: { subscription: { unsubscribe: () => {} } } };
      },
      getSession: async () => ({ data: { session: null } }),
      mfa: { getAuthenticatorAssuranceLevel: async () => ({ data: { currentLevel: 'aal1', nextLevel: 'aal1' } }) },
      signOut: async () => {
        calls.push('signOut');
        listener?.('SIGNED_OUT', null);
        return { error: null };
      },
    },
  } as unknown as SupabaseAuth;
  const sessionOf = (id: string) => ({ access_token: `token-${id}`, user: { id, email: `${id}@example.com` } }) as unknown as Session;
  return {
    client,
    calls,
    listening: () => listener !== undefined,
    emit: (event: string, id: string | null) => listener?.(event, id ? sessionOf(id) : null),
  };
}

function Probe() {
  const { user, signOut } = useAuth();
  return (
    <>
      <span data-testid="user">{user?.id ?? 'nobody'}</span>
      <button onClick={() => void signOut()}>out</button>
    </>
  );
}

describe('AuthProvider: a change of person', () => {
  it('calls onUserChange with the one who left before the next one renders, and onSignOut before the session ends', async () => {
    const fake = fakeClient();
    const shownWhenCalled: string[] = [];
    const onUserChange = vi.fn(() => {
      shownWhenCalled.push(screen.getByTestId('user').textContent ?? '');
    });
    const onSignOut = vi.fn(async (userId: string) => {
      fake.calls.push(`onSignOut ${userId}`);
    });
    render(
      <AuthProvider loadClient={async () => fake.client} onUserChange={onUserChange} onSignOut={onSignOut}>
        <Probe />
      </AuthProvider>,
    );
    await waitFor(() => expect(fake.listening()).toBe(true));
    await act(async () => fake.emit('SIGNED_IN', 'ada'));
    await waitFor(() => expect(screen.getByTestId('user').textContent).toBe('ada'));
    await act(async () => fake.emit('TOKEN_REFRESHED', 'ada'));
    expect(onUserChange).not.toHaveBeenCalled();

    // Another account signs in from another tab: Ada's cache goes while her name is still the last thing shown.
    await act(async () => fake.emit('SIGNED_IN', 'bob'));
    await waitFor(() => expect(screen.getByTestId('user').textContent).toBe('bob'));
    expect(onUserChange).toHaveBeenCalledWith('ada');
    expect(shownWhenCalled).toEqual(['ada']);

    await act(async () => screen.getByRole('button', { name: 'out' }).click());
    await waitFor(() => expect(screen.getByTestId('user').textContent).toBe('nobody'));
    expect(fake.calls).toEqual(['onSignOut bob', 'signOut']);
    expect(onUserChange).toHaveBeenLastCalledWith('bob');
    expect(onUserChange).toHaveBeenCalledTimes(2);
  });
});

describe('AuthProvider: the client loads when a page asks for the session', () => {
  it('loads nothing under a page that never asks (the public site), and the session once one does', async () => {
    const fake = fakeClient();
    const loadClient = vi.fn(async () => fake.client);
    const { rerender } = render(
      <AuthProvider loadClient={loadClient}>
        <p>Landing page</p>
      </AuthProvider>,
    );
    await act(async () => {}); // any effect the provider has ran
    expect(loadClient).not.toHaveBeenCalled();
    expect(fake.listening()).toBe(false);

    rerender(
      <AuthProvider loadClient={loadClient}>
        <Probe />
      </AuthProvider>,
    );
    await waitFor(() => expect(fake.listening()).toBe(true));
    await act(async () => fake.emit('SIGNED_IN', 'ada'));
    await waitFor(() => expect(screen.getByTestId('user').textContent).toBe('ada'));
  });
});
