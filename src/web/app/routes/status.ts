export { StatusPage as Component } from '#web/features/status/status-page.tsx';
