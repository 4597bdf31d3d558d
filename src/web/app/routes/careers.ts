export { CareersPage as Component } from '#web/features/marketing/pages/careers-page.tsx';
