export { InsightsPage as Component } from '#web/features/insights/components/insights-page.tsx';
