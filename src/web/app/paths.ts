/**
 * Every page of the app: its route pattern (`path`, for the router) and how to link to it (`href`),
 * so links and navigation never spell a URL by hand. The one module of app/ that features and
 * shared components may import: it imports nothing itself.
 */
const fixed = <P extends string>(path: P) => ({ path, href: (): P => path });

/** `?t=` on a meeting's link: the moment to open it at, in milliseconds from the recording's start. */
const MOMENT_PARAM = 't';

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
  /**
   * `signup`: open on the Sign Up tab (Get Started, Start your free trial) instead of Sign In;
   * `email`: the address the forms start with (an invitation's).
   */
  auth: {
    path: '/auth',
    href: (tab?: 'signup', email?: string): string => {
      const query = new URLSearchParams({ ...(tab ? { tab } : {}), ...(email ? { email } : {}) }).toString();
      return query ? `/auth?${query}` : '/auth';
    },
  },
  /** Where a password-recovery email's link lands, signed in for that purpose (features/auth). */
  resetPassword: fixed('/reset-password'),
  demo: fixed('/demo'),
  shared: { path: '/shared/:token', href: (token: string): string => `/shared/${encodeURIComponent(token)}` },
  /** An invitation to a team (the link in its email): previewed by anyone, accepted signed in. */
  invite: { path: '/invite/:token', href: (token: string): string => `/invite/${encodeURIComponent(token)}` },

  dashboard: fixed('/dashboard'),
  record: {
    path: '/record',
    /** `from.event`: record this calendar event (its title and attendees filled in, the recording linked to it). */
    href: (from?: { event: string }): string => (from ? `/record?event=${encodeURIComponent(from.event)}` : '/record'),
  },
  history: fixed('/history'),
  insights: fixed('/insights'),
  meeting: {
    path: '/meetings/:id',
    /** `at.t`: open the meeting at this moment (ms), e.g. where an action item or a decision was said. */
    href: (id: string, at?: { t: number }): string => {
      const base = `/meetings/${encodeURIComponent(id)}`;
      return at ? `${base}?${MOMENT_PARAM}=${Math.max(0, Math.round(at.t))}` : base;
    },
    /** The moment a link asked for (ms), or undefined when it asked for none or for nonsense. */
    momentOf: (search: URLSearchParams): number | undefined => {
      const value = search.get(MOMENT_PARAM);
      const ms = value === null || value.trim() === '' ? Number.NaN : Number(value);
      return Number.isSafeInteger(ms) && ms >= 0 ? ms : undefined;
    },
  },
  analytics: fixed('/analytics'),
  team: fixed('/team'),
  settings: {
    path: '/settings',
    /** `tab`: the tab to open at (`?tab=`), e.g. Privacy from an auto-delete notice. */
    href: (tab?: 'profile' | 'notifications' | 'recording' | 'privacy' | 'billing' | 'developers'): string => (tab ? `/settings?tab=${tab}` : '/settings'),
    /** Recording's Notes Model card: what writes meeting notes, and how a model is connected. */
    notesModel: '/settings?tab=recording#notes-model',
  },
  /** Where Google sends the browser back after Connect with Google (the OAuth redirect URI). */
  googleCalendarCallback: fixed('/settings/connections/google'),
  /** Where Microsoft sends the browser back after Connect Microsoft account (the OAuth redirect URI). */
  microsoftCallback: fixed('/settings/connections/microsoft'),
  /** The API reference (Settings › Developers links it), rendered from /api/v1/openapi.json. */
  apiReference: fixed('/settings/api'),
  status: fixed('/status'),
  /** Where Slack sends the browser back after "Add to Slack" (the redirect URI the operator registers). */
  slackCallback: fixed('/integrations/slack/callback'),

  notFound: { path: '*' },
} as const;
