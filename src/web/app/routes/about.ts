export { AboutPage as Component } from '#web/features/marketing/pages/about-page.tsx';
