import { ProtectedRoute } from '#web/components/auth/protected-route.tsx';
import { AppShell } from '#web/components/shell/app-shell.tsx';

/** The login guard around the app shell: the two wrappers of every app screen (spec §2). */
export function Component() {
  return (
    <ProtectedRoute>
      <AppShell />
    </ProtectedRoute>
  );
}
