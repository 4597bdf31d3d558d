import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';

const page = (path: string, load: () => Promise<{ default: ComponentType }>): RouteObject => ({
  path,
  lazy: async () => ({ Component: (await load()).default }),
});

/** The public site: landing, pricing and the linked pages (spec §2). */
export const marketingRoutes: RouteObject[] = [
  page('/', () => import('./pages/landing-page.tsx')),
  page('/pricing', () => import('./pages/pricing-page.tsx')),
  page('/blog', () => import('./pages/blog-page.tsx')),
  page('/help', () => import('./pages/help-page.tsx')),
  page('/guides', () => import('./pages/guides-page.tsx')),
  page('/about', () => import('./pages/about-page.tsx')),
  page('/careers', () => import('./pages/careers-page.tsx')),
  page('/contact', () => import('./pages/contact-page.tsx')),
  page('/privacy', () => import('./pages/privacy-page.tsx')),
  page('/terms', () => import('./pages/terms-page.tsx')),
];

export const notFoundRoute: RouteObject = page('*', () => import('./pages/not-found-page.tsx'));
