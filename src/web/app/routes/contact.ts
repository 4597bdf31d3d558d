export { ContactPage as Component } from '#web/features/marketing/pages/contact-page.tsx';
