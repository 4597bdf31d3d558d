export { SettingsPage as Component } from '#web/features/settings/components/settings-page.tsx';
