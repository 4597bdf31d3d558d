import { ProtectedRoute } from '#web/components/auth/protected-route.tsx';
import { AppShell } from '#web/components/shell/app-shell.tsx';
import { useFirstVisitTimeZone } from '#web/features/settings/use-first-visit-time-zone.ts';

/** The login guard around the app shell: the two wrappers of every app screen (spec §2). */
export function Component() {
  return (
    <ProtectedRoute>
      <SignedIn />
    </ProtectedRoute>
  );
}

function SignedIn() {
  useFirstVisitTimeZone();
  return <AppShell />;
}
