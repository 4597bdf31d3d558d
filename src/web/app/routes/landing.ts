export { LandingPage as Component } from '#web/features/marketing/pages/landing-page.tsx';
