export { AnalyticsPage as Component } from '#web/features/insights/components/analytics-page.tsx';
