import { Component as ClassComponent, lazy, Suspense, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { matchRoutes, useLocation, useRoutes, type RouteObject } from 'react-router';
import { SkipLink } from '#web/components/layout/skip-link.tsx';
import { loadSupabase } from '#web/lib/supabase.ts';
import { paths } from './paths.ts';
import { RouteError } from './route-error.tsx';

/**
 * A page (or layout) from its route module in routes/, which exports it as `Component` and is the
 * only place where two features meet. Every page is its own chunk, downloaded the first time it is
 * needed, so the landing page downloads only what it shows. The router is React Router's declarative
 * one (routes rendered by useRoutes): its data router (loaders, actions, fetchers) is twice the size
 * and this app uses none of it; the server state lives in react-query.
 */
type Lazy = { Page: ComponentType; preload: () => Promise<unknown> };

function lazyRoute(load: () => Promise<{ Component: ComponentType }>): Lazy {
  let loading: Promise<{ Component: ComponentType }> | undefined;
  let Loaded: ComponentType | undefined;
  const start = () =>
    (loading ??= load().then((module) => {
      Loaded = module.Component;
      return module;
    }));
  const Suspending = lazy(() => start().then((module) => ({ default: module.Component })));
  /**
   * A page whose chunk is here renders at once. React.lazy would suspend it once anyway, and React
   * reveals what a Suspense boundary held back at most every 300 ms: with a layout, the app shell and
   * a page nested, a first visit waited about a second after its last download before anything
   * showed. (`Loaded` is set before the lazy component resolves, so a page never switches from one to
   * the other once shown.)
   */
  function Page() {
    return Loaded ? <Loaded /> : <Suspending />;
  }
  return { Page, preload: start };
}

function route(path: string | undefined, page: Lazy, children?: RouteObject[]): RouteObject {
  return { path, element: <page.Page />, handle: page, children };
}

const site = (path: string, load: () => Promise<{ Component: ComponentType }>) => route(path, lazyRoute(load));

/**
 * The guarded app shell (routes/app-shell.tsx), and the auth client with it: no signed-in screen shows
 * before the session has been read.
 */
const appShell = lazyRoute(() => {
  void loadSupabase();
  return import('./routes/app-shell.tsx');
});

// The pages outside the app layout are named in vite.config.ts too: the signed-in app's chunk leaves
// out what they share with it, so they do not download it.
const routes: RouteObject[] = [
  site(paths.home.path, () => import('./routes/landing.ts')),
  site(paths.pricing.path, () => import('./routes/pricing.ts')),
  site(paths.blog.path, () => import('./routes/blog.ts')),
  site(paths.help.path, () => import('./routes/help.ts')),
  site(paths.guides.path, () => import('./routes/guides.ts')),
  site(paths.about.path, () => import('./routes/about.ts')),
  site(paths.careers.path, () => import('./routes/careers.ts')),
  site(paths.contact.path, () => import('./routes/contact.ts')),
  site(paths.privacy.path, () => import('./routes/privacy.ts')),
  site(paths.terms.path, () => import('./routes/terms.ts')),
  site(paths.auth.path, () => import('./routes/auth.ts')),
  site(paths.resetPassword.path, () => import('./routes/reset-password.ts')),
  // The pages that read the API, under the provider they need (react-query).
  route(
    undefined,
    lazyRoute(() => import('./app-layout.tsx')),
    [
      site(paths.demo.path, () => import('./routes/demo.ts')),
      site(paths.shared.path, () => import('./routes/shared-meeting.ts')),
      site(paths.invite.path, () => import('./routes/invite.ts')),
      route(undefined, appShell, [
        site(paths.dashboard.path, () => import('./routes/dashboard.tsx')),
        site(paths.record.path, () => import('./routes/record.tsx')),
        site(paths.history.path, () => import('./routes/history.tsx')),
        site(paths.insights.path, () => import('./routes/insights.ts')),
        site(paths.meeting.path, () => import('./routes/meeting.tsx')),
        site(paths.analytics.path, () => import('./routes/analytics.ts')),
        site(paths.team.path, () => import('./routes/team.tsx')),
        site(paths.settings.path, () => import('./routes/settings.tsx')),
        site(paths.googleCalendarCallback.path, () => import('./routes/google-calendar-callback.ts')),
        site(paths.microsoftCallback.path, () => import('./routes/microsoft-callback.ts')),
        site(paths.apiReference.path, () => import('./routes/api-reference.ts')),
        site(paths.status.path, () => import('./routes/status.ts')),
        site(paths.slackCallback.path, () => import('./routes/slack-callback.ts')),
      ]),
    ],
  ),
  site(paths.notFound.path, () => import('./routes/not-found.ts')),
];

/** Downloads the chunks of the page at `pathname` and of the layouts around it, together; resolves once all are here (or one failed). */
export function preloadPage(pathname: string): Promise<unknown> {
  return Promise.allSettled((matchRoutes(routes, pathname) ?? []).map((match) => (match.route.handle as Lazy).preload()));
}

/**
 * Every page: the "Skip to content" link first in the tab order, then the page. The chunks of a page
 * and of the layouts around it download together, not each once its parent has rendered.
 */
export function AppRoutes() {
  const location = useLocation();
  void preloadPage(location.pathname);
  const page = useRoutes(routes, location);
  return (
    <RouteErrorBoundary pathname={location.pathname}>
      <SkipLink />
      {/* Until a page's first download ends, nothing (as before React renders); later navigations keep the last page meanwhile (transitions). */}
      <Suspense fallback={null}>{page}</Suspense>
    </RouteErrorBoundary>
  );
}

type BoundaryState = { error: unknown; failed: boolean; pathname: string };

/** A page that fails to load or throws shows RouteError instead, until the person goes to another page. */
class RouteErrorBoundary extends ClassComponent<{ pathname: string; children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { error: undefined, failed: false, pathname: this.props.pathname };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error, failed: true };
  }

  static getDerivedStateFromProps(props: { pathname: string }, state: BoundaryState): Partial<BoundaryState> | null {
    return props.pathname === state.pathname ? null : { error: undefined, failed: false, pathname: props.pathname };
  }

  /** A page that threw is reported (when the installation has a service and the person allows it); loaded only then, so no page downloads it otherwise. */
  override componentDidCatch(error: unknown, info: ErrorInfo) {
    void import('#web/lib/error-reports.ts').then(({ reportClientError }) => reportClientError(error, 'render', info.componentStack)).catch(() => undefined);
  }

  override render() {
    return this.state.failed ? <RouteError error={this.state.error} /> : this.props.children;
  }
}
