import { Loader2Icon } from 'lucide-react';
import { useEffect, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useAuth } from '#web/lib/auth/use-auth.ts';
import { paths } from '#web/app/paths.ts';

/** The login guard (spec §2): a centred spinner while the session is determined, then the content or /auth. */
export function ProtectedRoute({ children }: { children: ReactNode }) {
  const { user, loading, signedOutByUser, clearSignedOutByUser, mfaRequired } = useAuth();
  // Cleared only when the guard goes away, i.e. once the redirect to / has happened: clearing it any
  // earlier re-renders <Navigate> with /auth, and that navigation overtakes the one to /. Later
  // visits to guarded pages then go to /auth again.
  useEffect(() => clearSignedOutByUser, [clearSignedOutByUser]);
  if (loading) {
    return (
      <div role="status" className="flex min-h-svh flex-col items-center justify-center gap-3 text-muted-foreground">
        <Loader2Icon className="size-8 animate-spin text-primary" aria-hidden="true" />
        <p>Loading...</p>
      </div>
    );
  }
  // After "Sign out" the person goes to the landing page (spec §8), anyone else to /auth.
  if (!user) return <Navigate to={signedOutByUser ? paths.home.href() : paths.auth.href()} replace />;
  // Signed in with the password only while two-factor verification is on: /auth asks for the code first.
  if (mfaRequired) return <Navigate to={paths.auth.href()} replace />;
  return <>{children}</>;
}
