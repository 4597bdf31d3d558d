import { useEffect } from 'react';
import { ProtectedRoute } from '#web/components/auth/protected-route.tsx';
import { AppShell } from '#web/components/shell/app-shell.tsx';
import { useFirstVisitTimeZone } from '#web/features/settings/use-first-visit-time-zone.ts';
import { listenForClientErrors } from '#web/lib/error-reports.ts';

/** The login guard around the app shell: the two wrappers of every app screen (spec §2). */
export function Component() {
  // The signed-in app's errors go to the operator's service when the person allows it (lib/error-reports.ts).
  useEffect(() => listenForClientErrors(), []);
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
