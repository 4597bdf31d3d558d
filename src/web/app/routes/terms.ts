export { TermsPage as Component } from '#web/features/marketing/pages/terms-page.tsx';
