export { MicrosoftCallback as Component } from '#web/features/settings/components/connections/oauth-callback.tsx';
