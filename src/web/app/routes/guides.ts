export { GuidesPage as Component } from '#web/features/marketing/pages/guides-page.tsx';
