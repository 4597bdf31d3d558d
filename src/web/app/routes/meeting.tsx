import { MeetingPage } from '#web/features/meetings/meeting/meeting-page.tsx';
import { ShareDialog } from '#web/features/sharing/share-dialog.tsx';

export function Component() {
  return <MeetingPage ShareDialog={ShareDialog} />;
}
