import { SettingsPage } from '#web/features/settings/components/settings-page.tsx';
import { VoiceProfileCard } from '#web/features/voice-profiles/components/voice-profile-card.tsx';

export function Component() {
  return <SettingsPage VoiceProfileCard={VoiceProfileCard} />;
}
