import type { Installation } from '#shared/contracts/app-config.ts';
import { installation } from '#web/lib/config.ts';
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

/**
 * What each switch does on this installation, said under it. The switches store the person's choice;
 * nothing leaves the installation unless its operator configured a collector (/app-config.js) and the
 * person's switch allows it. No part of Parley uses recordings or transcripts to improve any model.
 */
const PRIVACY_NOTES = {
  noUsageData: 'Nothing is collected on this installation: it sends no usage data anywhere.',
  usageData: 'While this is on, this installation sends which features you use, without your name or content, to the usage service its operator set up.',
  noErrorReports: 'Nothing is collected on this installation: it sends no error reports anywhere.',
  errorReports: 'While this is on, this installation sends error details to the error-reporting service its operator set up.',
  noModelTraining: 'Nothing is collected on this installation: no recording or transcript is used to improve any model.',
  nothingSent: 'Saved to your account. This installation sends no usage data or error reports anywhere.',
  saved: 'Saved to your account.',
} as const;

function privacyToggles({ usageAnalytics, errorReporting }: Installation): ToggleSpec<ToggleField>[] {
  return [
    {
      field: 'anonymizedUsage',
      label: 'Anonymized Feature Usage',
      description: 'Share which features you use, without your name or content.',
      note: usageAnalytics ? PRIVACY_NOTES.usageData : PRIVACY_NOTES.noUsageData,
    },
    {
      field: 'errorReporting',
      label: 'Error Reporting',
      description: 'Send error details when something goes wrong.',
      note: errorReporting ? PRIVACY_NOTES.errorReports : PRIVACY_NOTES.noErrorReports,
    },
    {
      field: 'aiImprovement',
      label: 'Allow data for AI model improvement',
      description: 'Let your transcripts be used to improve transcription models.',
      note: PRIVACY_NOTES.noModelTraining,
    },
  ];
}

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
  const here = installation();
  return (
    <Card>
      <CardHeader>
        <CardTitle>{TITLE}</CardTitle>
        <CardDescription>{here.usageAnalytics || here.errorReporting ? PRIVACY_NOTES.saved : PRIVACY_NOTES.nothingSent}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <SettingToggleSection headingId="data-sharing" title="Data Sharing" idPrefix="privacy" toggles={privacyToggles(here)} values={values} onChange={set} />
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
