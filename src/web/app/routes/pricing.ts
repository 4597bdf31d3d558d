export { PricingPage as Component } from '#web/features/marketing/pages/pricing-page.tsx';
