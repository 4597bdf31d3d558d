export { InvitePage as Component } from '#web/features/team/invite-page.tsx';
