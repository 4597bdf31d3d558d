import type { ReactNode } from 'react';
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
 * nothing leaves the installation unless its operator configured a collector (/app-config.js names
 * its host) and the person's switch allows it. Nothing here learns from a person's data yet.
 */
const PRIVACY_NOTES = {
  noUsageData: 'Nothing is collected on this installation: it sends no usage data anywhere.',
  usageData: (host: string) =>
    `While this is on, this installation sends which features you use (the kind of request only: never your name, ids or content) to the usage service its operator set up, at ${host}.`,
  noErrorReports: 'Nothing is collected on this installation: it sends no error reports anywhere.',
  errorReports: (host: string) =>
    `While this is on, this installation sends details of the errors you run into, in the app and on the server (with email addresses, tokens and ids removed), to the error-reporting service its operator set up, at ${host}.`,
  noLearning:
    'Nothing is learned on this installation yet: it does not learn from your corrections, and no recording or transcript is used to improve any model.',
  nothingSent: 'Saved to your account. This installation sends no usage data or error reports anywhere.',
  saved: 'Saved to your account.',
} as const;

function privacyToggles({ usageAnalyticsHost, errorReportingHost }: Installation): ToggleSpec<ToggleField>[] {
  return [
    {
      field: 'anonymizedUsage',
      label: 'Anonymized Feature Usage',
      description: 'Share which features you use, without your name or content.',
      note: usageAnalyticsHost ? PRIVACY_NOTES.usageData(usageAnalyticsHost) : PRIVACY_NOTES.noUsageData,
    },
    {
      field: 'errorReporting',
      label: 'Error Reporting',
      description: 'Send error details when something goes wrong.',
      note: errorReportingHost ? PRIVACY_NOTES.errorReports(errorReportingHost) : PRIVACY_NOTES.noErrorReports,
    },
    {
      field: 'aiImprovement',
      label: 'Allow data for AI model improvement',
      // What it would gate: learning on this server from the person's own corrections, never sending them anywhere.
      description: 'Let this installation learn from your corrections (speaker names, custom vocabulary, voice profiles). None of it leaves the server.',
      note: PRIVACY_NOTES.noLearning,
    },
  ];
}

const TITLE = 'Privacy Settings';

/** Privacy tab (spec §2 /settings): sharing toggles, retention, export and the danger zone. */
export function PrivacyTab({ children }: { children?: ReactNode } = {}) {
  return (
    <div className="grid gap-6">
      <PrivacySettingsCard />
      {children}
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
