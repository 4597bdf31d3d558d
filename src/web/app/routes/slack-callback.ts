export { SlackCallbackPage as Component } from '#web/features/settings/components/connections/slack-callback-page.tsx';
