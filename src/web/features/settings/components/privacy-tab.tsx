import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Separator } from '#web/components/ui/separator.tsx';
import { AUTO_DELETE_OPTIONS } from '../preferences.ts';
import { SelectField } from './select-field.tsx';
import { SettingToggleSection, type ToggleSpec } from './setting-toggle.tsx';
import { SettingsLoadState } from './settings-load-state.tsx';
import { SettingsSaveFooter } from './settings-save-footer.tsx';
import { SETTINGS_MESSAGES } from '../settings-messages.ts';
import { useSettingsTab } from '../use-settings-tab.ts';
import { DangerZoneCard } from './danger-zone-card.tsx';
import { DataExportSection } from './data-export-section.tsx';

type ToggleField = 'anonymizedUsage' | 'errorReporting' | 'aiImprovement';

const TOGGLES: ToggleSpec<ToggleField>[] = [
  { field: 'anonymizedUsage', label: 'Anonymized Feature Usage', description: 'Share which features you use, without your name or content.' },
  { field: 'errorReporting', label: 'Error Reporting', description: 'Send error details when something goes wrong.' },
  { field: 'aiImprovement', label: 'Allow data for AI model improvement', description: 'Let your transcripts be used to improve transcription models.' },
];

const TITLE = 'Privacy Settings';

/** Privacy tab (spec §2 /settings): sharing toggles, retention, export and the danger zone. */
export function PrivacyTab() {
  return (
    <div className="grid gap-6">
      <PrivacySettingsCard />
      <DangerZoneCard />
    </div>
  );
}

function PrivacySettingsCard() {
  const { query, values, set, save, isSaving } = useSettingsTab('privacy', {
    saved: SETTINGS_MESSAGES.privacyUpdated,
    failed: SETTINGS_MESSAGES.privacyFailed,
  });
  if (!values) return <SettingsLoadState title={TITLE} query={query} />;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{TITLE}</CardTitle>
        <CardDescription>Saved to your account. This installation sends no usage data or error reports anywhere.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <SettingToggleSection headingId="data-sharing" title="Data Sharing" idPrefix="privacy" toggles={TOGGLES} values={values} onChange={set} />
        <Separator />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            id="auto-delete"
            label="Auto-delete recordings"
            value={values.autoDelete}
            options={AUTO_DELETE_OPTIONS}
            onChange={(autoDelete) => set('autoDelete', autoDelete)}
            description={SETTINGS_MESSAGES.autoDeleteExplained}
          />
        </div>
        <DataExportSection />
      </CardContent>
      <SettingsSaveFooter label="Update Privacy Settings" isSaving={isSaving} onSave={save} />
    </Card>
  );
}
