import { MeetingPage } from '#web/features/meetings/meeting/meeting-page.tsx';
import { AutoDeleteNotice } from '#web/features/settings/components/auto-delete-notice.tsx';
import { BetterTranscriptsNotice } from '#web/features/status/better-transcripts-notice.tsx';
import { ShareDialog } from '#web/features/sharing/share-dialog.tsx';
import { MeetingVoicesCard } from '#web/features/voice-profiles/components/meeting-voices-card.tsx';

export function Component() {
  return (
    <MeetingPage
      ShareDialog={ShareDialog}
      AutoDeleteNotice={AutoDeleteNotice}
      BetterTranscriptsNotice={BetterTranscriptsNotice}
      VoicesCard={MeetingVoicesCard}
    />
  );
}
