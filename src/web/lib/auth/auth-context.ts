import type { AuthError, Session, User } from '@supabase/auth-js';
import { createContext } from 'react';

/** The session context of spec §3/§4: user, session, loading (true until the first answer). */
export type AuthContextValue = {
  user: User | null;
  session: Session | null;
  loading: boolean;
  /** True right after a deliberate sign-out: the guard then sends the person to / (spec §8), not to /auth. */
  signedOutByUser: boolean;
  clearSignedOutByUser: () => void;
  /**
   * Signed in with the password only while the account has a verified authenticator (aal1, aal2 to
   * reach): the server opens nothing but the MFA challenge until `verifyMfa` succeeds.
   */
  mfaRequired: boolean;
  signUp: (input: { email: string; password: string; fullName: string }) => Promise<{ error: AuthError | null; session: Session | null }>;
  signIn: (input: { email: string; password: string }) => Promise<{ error: AuthError | null; mfaRequired: boolean }>;
  /** Passes the MFA challenge of the signed-in session with a code from the authenticator app. */
  verifyMfa: (code: string) => Promise<{ error: { message: string } | null }>;
  signOut: () => Promise<{ error: AuthError | null }>;
};

export const AuthContext = createContext<AuthContextValue | undefined>(undefined);

/**
 * Whether a page has asked for the session yet, and how one asks (useAuth does, by using it). The
 * provider loads the auth client and reads the session only from then on, so the public site's pages,
 * which never ask, download no auth code at all. A context of its own, apart from the session's.
 */
export type AuthStart = { started: boolean; start: () => void };

export const AuthStartContext = createContext<AuthStart | undefined>(undefined);
