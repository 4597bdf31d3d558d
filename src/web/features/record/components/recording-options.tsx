import { useState } from 'react';
import type { RecordingOptions } from '#shared/contracts/meetings.ts';
import { AUDIO_QUALITY_BITRATES, type RecordingSettings } from '#shared/contracts/settings.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '#web/components/ui/dialog.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Switch } from '#web/components/ui/switch.tsx';
import { installation } from '#web/lib/config.ts';
import { formatBitrate } from '#web/lib/format.ts';
import { HIGH_QUALITY_OPTION_BITRATE } from '../capture/audio-bitrate.ts';

/** The account's Audio Quality (Settings › Recording) as its tab names it. */
export type AudioQualityChoice = { value: RecordingSettings['quality']; label: string };
export const DEFAULT_AUDIO_QUALITY: AudioQualityChoice = { value: 'high', label: 'High' };

/** What an option's description may depend on: the person's team and their Audio Quality. */
type DescriptionContext = { autoShareTeam: string | undefined; audioQuality: AudioQualityChoice };

const OPTIONS: { key: keyof RecordingOptions; id: string; label: string; description: string | ((context: DescriptionContext) => string) }[] = [
  { key: 'speakerDetection', id: 'speaker-detection', label: 'Speaker Detection', description: 'Tell who said what.' },
  {
    key: 'emotionalAnalysis',
    id: 'emotional-analysis',
    label: 'Anonymous Emotional Analysis',
    // On by default (spec §9), so where a provider scores it the option says so without its dialog being opened.
    description: () => {
      const provider = installation().emotionProviderHost;
      return provider
        ? `How the conversation felt, without identities: the transcript’s text, anonymised, is scored by ${provider}.`
        : 'How the conversation felt, without identities.';
    },
  },
  { key: 'actionItems', id: 'action-items', label: 'Action Items', description: 'Pick out tasks, owners and due dates.' },
  { key: 'summary', id: 'summary', label: 'Summary', description: 'A short summary when the meeting ends.' },
  { key: 'noiseReduction', id: 'noise-reduction', label: 'Noise Reduction', description: 'Let the browser suppress background noise.' },
  {
    key: 'highQuality',
    id: 'high-quality',
    label: 'High Quality Audio',
    // What it changes for this person: their account's Audio Quality, named with its bitrate.
    description: ({ audioQuality }) =>
      `Keep more detail; larger files (${formatBitrate(HIGH_QUALITY_OPTION_BITRATE)}). Otherwise your Audio Quality in Settings › Recording: ${audioQuality.label}, ${formatBitrate(AUDIO_QUALITY_BITRATES[audioQuality.value])}.`,
  },
  {
    key: 'autoShare',
    id: 'auto-share',
    label: 'Auto-Share',
    // Share with their default team (the one they last chose on /team, else their first: the text names it), or, with no team, make a share link.
    description: ({ autoShareTeam }) =>
      autoShareTeam
        ? `Share with your team “${autoShareTeam}” from the start (the team shown on the Team page; change it on the meeting page).`
        : 'Create a share link when the meeting is saved. In a team, it is shared with your team instead.',
  },
];

/** The recording options of spec §2 with their §9 defaults; they are saved with the meeting. */
export function RecordingOptionsPanel({
  value,
  onChange,
  disabled,
  autoShareTeam,
  audioQuality = DEFAULT_AUDIO_QUALITY,
}: {
  value: RecordingOptions;
  onChange: (next: RecordingOptions) => void;
  disabled?: boolean;
  /** The team Auto-Share shares with (the one /team shows); none: it makes a share link. */
  autoShareTeam?: string | undefined;
  /** The account's Audio Quality (Settings › Recording), the bitrate without "High Quality Audio". */
  audioQuality?: AudioQualityChoice;
}) {
  const [privacyOpen, setPrivacyOpen] = useState(false);
  const set = (key: keyof RecordingOptions, checked: boolean) => {
    onChange({ ...value, [key]: checked });
    if (key === 'emotionalAnalysis' && checked) setPrivacyOpen(true);
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recording options</CardTitle>
        <CardDescription>Saved with the meeting.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {OPTIONS.map((option) => (
          <div key={option.key} className="flex items-start justify-between gap-4">
            <div className="grid gap-0.5">
              <Label htmlFor={option.id}>{option.label}</Label>
              <p className="text-xs text-muted-foreground">
                {typeof option.description === 'function' ? option.description({ autoShareTeam, audioQuality }) : option.description}
              </p>
            </div>
            <Switch id={option.id} checked={value[option.key]} onCheckedChange={(checked) => set(option.key, checked)} disabled={disabled} />
          </div>
        ))}
      </CardContent>
      <Dialog open={privacyOpen} onOpenChange={setPrivacyOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Anonymous emotional analysis</DialogTitle>
            <DialogDescription>How Parley looks at the tone of a meeting, and what it keeps.</DialogDescription>
          </DialogHeader>
          <EmotionalAnalysisExplained provider={installation().emotionProviderHost} />
          <DialogFooter>
            <Button
              variant="outline"
              onClick={() => {
                onChange({ ...value, emotionalAnalysis: false });
                setPrivacyOpen(false);
              }}
            >
              Turn it off
            </Button>
            <Button onClick={() => setPrivacyOpen(false)}>I understand</Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Card>
  );
}

/**
 * What "Anonymous Emotional Analysis" does on this installation: sentiment computed on this server
 * from the words (the default), or, when the operator configured an emotion-detection provider, the
 * anonymised words sent to it (features/emotion on the server), named by its host.
 */
function EmotionalAnalysisExplained({ provider }: { provider: string | null }) {
  return (
    <div className="grid gap-3 text-sm text-muted-foreground">
      {provider ? (
        <>
          <p>
            Sentiment is computed by the emotion-detection service this installation’s operator chose, at {provider}. While this option is on, Parley sends it
            the text of the transcript with names, email addresses and numbers removed: never the recording, and never who said what.
          </p>
          <p>
            Until it answers, and if it cannot, sentiment is computed on this Parley server from the words of the transcript, positive, neutral or negative, per
            speaker turn. Turn this off and nothing of the meeting is sent to {provider}.
          </p>
        </>
      ) : (
        <p>
          Sentiment is computed on this Parley server from the words of the transcript — positive, neutral or negative — per speaker turn and over the course of
          the meeting. Nothing leaves the server for this: the recording and the transcript are not sent to any third-party service.
        </p>
      )}
      <p>The results are stored with the meeting as numbers per segment, not as judgements about people, and they are deleted with the meeting.</p>
      <p>Tell everyone in the meeting that it is recorded and analysed. You can turn this off at any time for future recordings.</p>
    </div>
  );
}
