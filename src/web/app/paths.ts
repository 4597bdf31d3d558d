/**
 * Every page of the app: its route pattern (`path`, for the router) and how to link to it (`href`),
 * so links and navigation never spell a URL by hand. The one module of app/ that features and
 * shared components may import: it imports nothing itself.
 */
const fixed = <P extends string>(path: P) => ({ path, href: (): P => path });

export const paths = {
  home: { path: '/', href: (section?: 'features' | 'testimonials'): string => (section ? `/#${section}` : '/') },
  pricing: fixed('/pricing'),
  blog: fixed('/blog'),
  help: fixed('/help'),
  guides: fixed('/guides'),
  about: fixed('/about'),
  careers: fixed('/careers'),
  contact: fixed('/contact'),
  privacy: fixed('/privacy'),
  terms: fixed('/terms'),
  auth: fixed('/auth'),
  demo: fixed('/demo'),
  shared: { path: '/shared/:token', href: (token: string): string => `/shared/${encodeURIComponent(token)}` },

  dashboard: fixed('/dashboard'),
  record: fixed('/record'),
  history: fixed('/history'),
  insights: fixed('/insights'),
  meeting: { path: '/meetings/:id', href: (id: string): string => `/meetings/${encodeURIComponent(id)}` },
  analytics: fixed('/analytics'),
  team: fixed('/team'),
  settings: fixed('/settings'),
  status: fixed('/status'),

  notFound: { path: '*' },
} as const;
