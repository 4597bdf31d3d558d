import { valuesOf } from './stored-settings.ts';

/** Defaults and choices of the Notifications, Recording and Privacy tabs (spec §2 /settings, §9). */

export const NOTIFICATION_DEFAULTS = {
  meetingReminders: true,
  transcriptionComplete: true,
  aiInsightsReady: true,
  teamActivity: false,
  productUpdates: true,
  actionItems: true,
  mentions: true,
  teamInvitations: true,
};
export type NotificationSettings = typeof NOTIFICATION_DEFAULTS;

export const AUDIO_QUALITIES = [
  { value: 'standard', label: 'Standard' },
  { value: 'high', label: 'High' },
  { value: 'ultra', label: 'Ultra' },
] as const;
export type AudioQuality = (typeof AUDIO_QUALITIES)[number]['value'];

export const FILE_FORMATS = [
  { value: 'mp3', label: 'MP3' },
  { value: 'wav', label: 'WAV' },
  { value: 'aac', label: 'AAC' },
] as const;
export type FileFormat = (typeof FILE_FORMATS)[number]['value'];

export type RecordingSettings = {
  quality: AudioQuality;
  format: FileFormat;
  speakerDiarization: boolean;
  automaticPunctuation: boolean;
  fillerWordRemoval: boolean;
  aiSummary: boolean;
};
export const RECORDING_DEFAULTS: RecordingSettings = {
  quality: 'high',
  format: 'mp3',
  speakerDiarization: true,
  automaticPunctuation: true,
  fillerWordRemoval: false,
  aiSummary: true,
};
export const RECORDING_CHOICES = { quality: valuesOf(AUDIO_QUALITIES), format: valuesOf(FILE_FORMATS) };

export const AUTO_DELETE_OPTIONS = [
  { value: 'never', label: 'Never' },
  { value: '30days', label: '30 days' },
  { value: '90days', label: '90 days' },
  { value: '1year', label: '1 year' },
] as const;
export type AutoDelete = (typeof AUTO_DELETE_OPTIONS)[number]['value'];

export type PrivacySettings = {
  anonymizedUsage: boolean;
  errorReporting: boolean;
  aiImprovement: boolean;
  autoDelete: AutoDelete;
};
export const PRIVACY_DEFAULTS: PrivacySettings = {
  anonymizedUsage: true,
  errorReporting: true,
  aiImprovement: false,
  autoDelete: '90days', // spec §9: default auto-delete 90 days
};
export const PRIVACY_CHOICES = { autoDelete: valuesOf(AUTO_DELETE_OPTIONS) };

export const BILLING_FIELDS = [
  { field: 'name', label: 'Name', autoComplete: 'name' },
  { field: 'email', label: 'Email', autoComplete: 'email' },
  { field: 'company', label: 'Company', autoComplete: 'organization' },
  { field: 'address', label: 'Address', autoComplete: 'street-address' },
  { field: 'city', label: 'City', autoComplete: 'address-level2' },
  { field: 'state', label: 'State', autoComplete: 'address-level1' },
  { field: 'zip', label: 'ZIP Code', autoComplete: 'postal-code' },
  { field: 'country', label: 'Country', autoComplete: 'country-name' },
] as const;
export type BillingSettings = Record<(typeof BILLING_FIELDS)[number]['field'], string>;
