export { HelpPage as Component } from '#web/features/marketing/pages/help-page.tsx';
