export { MicrosoftCallback as Component } from '#web/features/settings/components/connections/microsoft-callback.tsx';
