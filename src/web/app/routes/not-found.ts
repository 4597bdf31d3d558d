export { NotFoundPage as Component } from '#web/features/marketing/pages/not-found-page.tsx';
