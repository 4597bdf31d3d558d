export { SharedMeetingPage as Component } from '#web/features/sharing/shared-meeting-page.tsx';
