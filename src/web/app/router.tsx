import { lazy, Suspense } from 'react';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { ProtectedRoute } from '#web/components/auth/protected-route.tsx';
import { SkipLink } from '#web/components/layout/skip-link.tsx';
import { paths } from './paths.ts';
import { RouteError } from './route-error.tsx';

/**
 * Every page is its own chunk, so the landing page downloads only what it shows. Each route module
 * in routes/ exports the page as `Component` (React Router's lazy route convention), and is the
 * only place where two features meet.
 */
const AppShell = lazy(() => import('#web/components/shell/app-shell.tsx').then((module) => ({ default: module.AppShell })));

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

const siteRoutes: RouteObject[] = [
  { path: paths.home.path, lazy: () => import('./routes/landing.ts') },
  { path: paths.pricing.path, lazy: () => import('./routes/pricing.ts') },
  { path: paths.blog.path, lazy: () => import('./routes/blog.ts') },
  { path: paths.help.path, lazy: () => import('./routes/help.ts') },
  { path: paths.guides.path, lazy: () => import('./routes/guides.ts') },
  { path: paths.about.path, lazy: () => import('./routes/about.ts') },
  { path: paths.careers.path, lazy: () => import('./routes/careers.ts') },
  { path: paths.contact.path, lazy: () => import('./routes/contact.ts') },
  { path: paths.privacy.path, lazy: () => import('./routes/privacy.ts') },
  { path: paths.terms.path, lazy: () => import('./routes/terms.ts') },
];

const appRoutes: RouteObject[] = [
  { path: paths.dashboard.path, lazy: () => import('./routes/dashboard.tsx') },
  { path: paths.record.path, lazy: () => import('./routes/record.tsx') },
  { path: paths.history.path, lazy: () => import('./routes/history.tsx') },
  { path: paths.insights.path, lazy: () => import('./routes/insights.ts') },
  { path: paths.meeting.path, lazy: () => import('./routes/meeting.tsx') },
  { path: paths.analytics.path, lazy: () => import('./routes/analytics.ts') },
  { path: paths.team.path, lazy: () => import('./routes/team.tsx') },
  { path: paths.settings.path, lazy: () => import('./routes/settings.ts') },
  { path: paths.status.path, lazy: () => import('./routes/status.ts') },
];

/** Around every page: the "Skip to content" link first in the tab order, then the page. */
function Root() {
  return (
    <>
      <SkipLink />
      <Outlet />
    </>
  );
}

export const router = createBrowserRouter([
  {
    element: <Root />,
    errorElement: <RouteError />,
    children: [
      ...siteRoutes,
      { path: paths.auth.path, lazy: () => import('./routes/auth.ts') },
      { path: paths.resetPassword.path, lazy: () => import('./routes/reset-password.ts') },
      { path: paths.demo.path, lazy: () => import('./routes/demo.ts') },
      { path: paths.shared.path, lazy: () => import('./routes/shared-meeting.ts') },
      { element: <GuardedShell />, children: appRoutes },
      { path: paths.notFound.path, lazy: () => import('./routes/not-found.ts') },
    ],
  },
]);
