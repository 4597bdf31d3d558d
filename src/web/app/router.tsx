import { lazy, Suspense, type ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { ProtectedRoute } from '#web/features/auth/protected-route.tsx';
import { marketingRoutes, notFoundRoute } from '#web/features/marketing/routes.tsx';
import { RouteError } from './route-error.tsx';

/** Every page is its own chunk, so the landing page downloads only what it shows. */
const page = (load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

const AppShell = lazy(() => import('#web/features/shell/app-shell.tsx'));

/** The login guard around the app shell: the two wrappers of every app screen (spec §2). */
function GuardedShell() {
  return (
    <ProtectedRoute>
      <Suspense fallback={null}>
        <AppShell />
      </Suspense>
    </ProtectedRoute>
  );
}

const appRoutes: RouteObject[] = [
  { path: '/dashboard', ...page(() => import('#web/features/dashboard/dashboard-page.tsx')) },
  { path: '/record', ...page(() => import('#web/features/record/record-page.tsx')) },
  { path: '/history', ...page(() => import('#web/features/history/history-page.tsx')) },
  { path: '/insights', ...page(() => import('#web/features/insights/insights-page.tsx')) },
  { path: '/meetings/:id', ...page(() => import('#web/features/meeting/meeting-page.tsx')) },
  { path: '/analytics', ...page(() => import('#web/features/analytics/analytics-page.tsx')) },
  { path: '/team', ...page(() => import('#web/features/team/team-page.tsx')) },
  { path: '/settings', ...page(() => import('#web/features/settings/settings-page.tsx')) },
  { path: '/status', ...page(() => import('#web/features/status/status-page.tsx')) },
];

export const router = createBrowserRouter([
  {
    errorElement: <RouteError />,
    children: [
      ...marketingRoutes,
      { path: '/auth', ...page(() => import('#web/features/auth/auth-page.tsx')) },
      { path: '/demo', ...page(() => import('#web/features/demo/demo-page.tsx')) },
      { path: '/shared/:token', ...page(() => import('#web/features/sharing/shared-meeting-page.tsx')) },
      { element: <GuardedShell />, children: appRoutes },
      notFoundRoute,
    ],
  },
]);
