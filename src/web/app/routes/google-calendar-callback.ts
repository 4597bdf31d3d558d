export { GoogleCalendarCallback as Component } from '#web/features/settings/components/connections/google-calendar-callback.tsx';
