import { AUDIO_QUALITY_BITRATES, type RecordingSettings } from '#shared/contracts/settings.ts';

/** /record's "High Quality Audio" option: this recording at 128 kbit/s, whatever the account's Audio Quality. */
export const HIGH_QUALITY_OPTION_BITRATE = 128_000;

/** The bitrate a new recording is made at: the account's Audio Quality's, or the option's when it is higher. */
export function recordingBitrate(quality: RecordingSettings['quality'], highQualityOption: boolean): number {
  const chosen = AUDIO_QUALITY_BITRATES[quality];
  return highQualityOption ? Math.max(HIGH_QUALITY_OPTION_BITRATE, chosen) : chosen;
}
