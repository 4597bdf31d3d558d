import type { AutoDelete, BillingSettings, RecordingSettings } from '#shared/contracts/settings.ts';

/** How the choices of the Recording, Privacy and Billing tabs read on screen (values: shared/contracts/settings.ts). */

export const AUDIO_QUALITIES: readonly { value: RecordingSettings['quality']; label: string }[] = [
  { value: 'standard', label: 'Standard' },
  { value: 'high', label: 'High' },
  { value: 'ultra', label: 'Ultra' },
];

export const FILE_FORMATS: readonly { value: RecordingSettings['format']; label: string }[] = [
  { value: 'mp3', label: 'MP3' },
  { value: 'wav', label: 'WAV' },
  { value: 'aac', label: 'AAC' },
];

export const AUTO_DELETE_OPTIONS: readonly { value: AutoDelete; label: string }[] = [
  { value: 'never', label: 'Never' },
  { value: '30days', label: '30 days' },
  { value: '90days', label: '90 days' },
  { value: '1year', label: '1 year' },
];

export const BILLING_FIELDS: readonly { field: keyof BillingSettings; label: string; autoComplete: string }[] = [
  { field: 'name', label: 'Name', autoComplete: 'name' },
  { field: 'email', label: 'Email', autoComplete: 'email' },
  { field: 'company', label: 'Company', autoComplete: 'organization' },
  { field: 'address', label: 'Address', autoComplete: 'street-address' },
  { field: 'city', label: 'City', autoComplete: 'address-level2' },
  { field: 'state', label: 'State', autoComplete: 'address-level1' },
  { field: 'zip', label: 'ZIP Code', autoComplete: 'postal-code' },
  { field: 'country', label: 'Country', autoComplete: 'country-name' },
];
