import { Link } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Separator } from '#web/components/ui/separator.tsx';
import { AUDIO_QUALITY_BITRATES, RECORDING_DEFAULTS } from '#shared/contracts/settings.ts';
import { formatBitrate } from '#web/lib/format.ts';
import { AUDIO_QUALITIES, FILE_FORMATS } from '../preferences.ts';
import { SelectField } from './select-field.tsx';
import { SettingToggleSection, type ToggleSpec } from './setting-toggle.tsx';
import { SettingsLoadState } from './settings-load-state.tsx';
import { SettingsSaveFooter } from './settings-save-footer.tsx';
import { SETTINGS_MESSAGES } from '../settings-messages.ts';
import { useSettingsTab } from '../use-settings-tab.ts';
import { paths } from '#web/app/paths.ts';

type ToggleField = 'speakerDiarization' | 'automaticPunctuation' | 'fillerWordRemoval' | 'aiSummary';

const TOGGLES: ToggleSpec<ToggleField>[] = [
  { field: 'speakerDiarization', label: 'Speaker Diarization', description: 'Tell speakers apart in the transcript.' },
  { field: 'automaticPunctuation', label: 'Automatic Punctuation', description: 'Add punctuation and capitals to the transcript.' },
  { field: 'fillerWordRemoval', label: 'Filler Word Removal', description: 'Leave out words such as “um” and “uh”.' },
  { field: 'aiSummary', label: 'AI Summary Generation', description: 'Summarize each meeting when its transcript is ready.' },
];

const TITLE = 'Recording Settings';

/** Recording tab (spec §2 /settings): quality, format and transcription toggles, saved to the account. */
export function RecordingTab() {
  const { query, values, set, setValues, save, isSaving } = useSettingsTab('recording', {
    saved: SETTINGS_MESSAGES.recordingSaved,
    failed: SETTINGS_MESSAGES.recordingFailed,
  });
  if (!values) return <SettingsLoadState title={TITLE} query={query} />;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{TITLE}</CardTitle>
        <CardDescription>
          Defaults for new recordings and their transcripts, saved to your account. Audio Quality sets the bitrate your next recordings are made at (
          {AUDIO_QUALITIES.map((quality) => `${quality.label} ${formatBitrate(AUDIO_QUALITY_BITRATES[quality.value])}`).join(', ')}); Speaker Diarization,
          Automatic Punctuation and Filler Word Removal change how they are transcribed.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            id="audio-quality"
            label="Audio Quality"
            value={values.quality}
            options={AUDIO_QUALITIES}
            onChange={(quality) => set('quality', quality)}
          />
          <SelectField id="file-format" label="Default File Format" value={values.format} options={FILE_FORMATS} onChange={(format) => set('format', format)} />
        </div>
        <Separator />
        <SettingToggleSection headingId="transcription-settings" title="Transcription" idPrefix="recording" toggles={TOGGLES} values={values} onChange={set} />
        <Separator />
        <div className="grid gap-2">
          <Label htmlFor="auto-save-location">Auto-Save Location</Label>
          <div className="flex gap-2">
            <Input id="auto-save-location" className="bg-muted/50" value="cloud storage" readOnly />
            <Button variant="outline" onClick={() => toast.info(SETTINGS_MESSAGES.saveLocationFixed)}>
              Change
            </Button>
          </div>
        </div>
      </CardContent>
      <SettingsSaveFooter label="Save Settings" isSaving={isSaving} onSave={save}>
        <Link to={paths.status.href()} className="mr-auto text-sm text-primary underline-offset-4 hover:underline">
          Transcription engine status
        </Link>
        {/* Resets the form only; Save Settings stores it, like any other change. */}
        <Button variant="outline" onClick={() => setValues(RECORDING_DEFAULTS)}>
          Restore Defaults
        </Button>
      </SettingsSaveFooter>
    </Card>
  );
}
