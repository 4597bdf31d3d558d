export { PrivacyPage as Component } from '#web/features/marketing/pages/privacy-page.tsx';
