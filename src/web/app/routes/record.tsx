import { RecordPage } from '#web/features/record/components/record-page.tsx';
import { useUserSettings } from '#web/features/settings/api.ts';
import { AutoDeleteNotice } from '#web/features/settings/components/auto-delete-notice.tsx';
import { AUDIO_QUALITIES } from '#web/features/settings/preferences.ts';

export function Component() {
  // The account's Audio Quality sets the bitrate of what is recorded here (High until the settings have loaded).
  const quality = useUserSettings().data?.settings.recording.quality;
  return <RecordPage autoDeleteNotice={<AutoDeleteNotice className="mb-4" />} audioQuality={AUDIO_QUALITIES.find((choice) => choice.value === quality)} />;
}
