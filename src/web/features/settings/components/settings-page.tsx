import type { ComponentType } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '#web/components/layout/page-header.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { DevelopersTab } from '../developers/components/developers-tab.tsx';
import { BillingTab } from './billing-tab.tsx';
import { useImportLocalSettings } from '../local-settings-import.ts';
import { NotificationsTab } from './notifications-tab.tsx';
import { PrivacyTab } from './privacy-tab.tsx';
import { ProfileTab } from './profile-tab.tsx';
import { RecordingTab } from './recording-tab.tsx';
import { NotesModelCard } from './notes-model-card.tsx';
import { VocabularyCard } from './vocabulary-card.tsx';

/** Recording's settings and, below them, what writes the notes and the custom vocabulary (saved on its own). */
function RecordingSettings() {
  return (
    <div className="grid gap-6">
      <RecordingTab />
      <NotesModelCard />
      <VocabularyCard />
    </div>
  );
}

const TABS = [
  { value: 'profile', label: 'Profile', Content: ProfileTab },
  { value: 'notifications', label: 'Notifications', Content: NotificationsTab },
  { value: 'recording', label: 'Recording', Content: RecordingSettings },
  { value: 'privacy', label: 'Privacy', Content: PrivacyTab },
  { value: 'billing', label: 'Billing', Content: BillingTab },
  // Beyond the spec's five: API tokens, webhooks and the API reference (issue 29's open platform).
  { value: 'developers', label: 'Developers', Content: DevelopersTab },
] as const;

/**
 * /settings (spec §2): the five tabs and Developers, Profile first; `?tab=privacy` (paths.settings.href) opens another.
 * `VoiceProfileCard`: the voice-profiles feature's card in Privacy (handed in by app/routes).
 */
export function SettingsPage({ VoiceProfileCard }: { VoiceProfileCard?: ComponentType } = {}) {
  useImportLocalSettings();
  const [search] = useSearchParams();
  const asked = search.get('tab');
  const initialTab = TABS.find((tab) => tab.value === asked)?.value ?? 'profile';
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader title="Settings" description="Manage your account settings and preferences." />
      <Tabs defaultValue={initialTab} className="gap-6">
        {/* Five labels do not fit a phone's width: the list scrolls sideways instead of squeezing them. */}
        {/* The tabs wrap onto a second row on a phone: a strip that scrolls sideways hid "Billing" past its edge. */}
        <TabsList className="h-auto max-w-full flex-wrap justify-start">
          {TABS.map((tab) => (
            <TabsTrigger key={tab.value} value={tab.value} className="flex-none">
              {tab.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {TABS.map(({ value, Content }) => (
          <TabsContent key={value} value={value}>
            {value === 'privacy' ? <PrivacyTab>{VoiceProfileCard && <VoiceProfileCard />}</PrivacyTab> : <Content />}
          </TabsContent>
        ))}
      </Tabs>
    </div>
  );
}
