import { z } from 'zod/mini';
import { defineEndpoint } from './endpoint.ts';

/**
 * A person's settings (spec §2 /settings): the Notifications, Recording, Privacy and Billing tabs,
 * kept per account on the server. GET /api/v1/settings answers every tab (the defaults where
 * nothing was saved); PUT /api/v1/settings/:tab changes only the fields it is sent.
 */

export const NotificationSettingsSchema = z.object({
  meetingReminders: z.boolean(),
  transcriptionComplete: z.boolean(),
  aiInsightsReady: z.boolean(),
  teamActivity: z.boolean(),
  productUpdates: z.boolean(),
  actionItems: z.boolean(),
  mentions: z.boolean(),
  teamInvitations: z.boolean(),
});
export type NotificationSettings = z.infer<typeof NotificationSettingsSchema>;

export const AUDIO_QUALITY_VALUES = ['standard', 'high', 'ultra'] as const;
/**
 * The Opus bitrate (bit/s) new recordings are made at for each Audio Quality. Speech is clear at
 * 32 kbit/s; 48 (High, the default) keeps a room's sound; 96 leaves nothing a listener would miss.
 */
export const AUDIO_QUALITY_BITRATES: Readonly<Record<(typeof AUDIO_QUALITY_VALUES)[number], number>> = { standard: 32_000, high: 48_000, ultra: 96_000 };
export const FILE_FORMAT_VALUES = ['mp3', 'wav', 'aac'] as const;

export const RecordingSettingsSchema = z.object({
  quality: z.enum(AUDIO_QUALITY_VALUES),
  format: z.enum(FILE_FORMAT_VALUES),
  speakerDiarization: z.boolean(),
  automaticPunctuation: z.boolean(),
  fillerWordRemoval: z.boolean(),
  aiSummary: z.boolean(),
});
export type RecordingSettings = z.infer<typeof RecordingSettingsSchema>;

export const AUTO_DELETE_VALUES = ['never', '30days', '90days', '1year'] as const;
export type AutoDelete = (typeof AUTO_DELETE_VALUES)[number];

export const PrivacySettingsSchema = z.object({
  anonymizedUsage: z.boolean(),
  errorReporting: z.boolean(),
  aiImprovement: z.boolean(),
  autoDelete: z.enum(AUTO_DELETE_VALUES),
});
export type PrivacySettings = z.infer<typeof PrivacySettingsSchema>;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Auto-delete's period counted from `from`: forwards (1) for the day a meeting that came into Parley
 * then is deleted, backwards (-1) for the sweep's cutoff (meetings that came in before it go). Null
 * for "never". One reckoning for the sweep and for what the app tells people.
 */
export function shiftByAutoDelete(period: AutoDelete, from: Date, direction: 1 | -1): Date | null {
  switch (period) {
    case 'never':
      return null;
    case '30days':
      return new Date(from.getTime() + direction * 30 * DAY_MS);
    case '90days':
      return new Date(from.getTime() + direction * 90 * DAY_MS);
    case '1year': {
      const shifted = new Date(from);
      shifted.setUTCFullYear(shifted.getUTCFullYear() + direction);
      return shifted;
    }
  }
}

/** Spec §5: settings fields have no validation; the bound only keeps one document small. */
export const MAX_BILLING_FIELD_LENGTH = 200;
const billingField = z.string().check(z.maxLength(MAX_BILLING_FIELD_LENGTH));

export const BillingSettingsSchema = z.object({
  name: billingField,
  email: billingField,
  company: billingField,
  address: billingField,
  city: billingField,
  state: billingField,
  zip: billingField,
  country: billingField,
});
export type BillingSettings = z.infer<typeof BillingSettingsSchema>;

export const UserSettingsSchema = z.object({
  notifications: NotificationSettingsSchema,
  recording: RecordingSettingsSchema,
  privacy: PrivacySettingsSchema,
  billing: BillingSettingsSchema,
});
export type UserSettings = z.infer<typeof UserSettingsSchema>;

export const SETTINGS_TABS = ['notifications', 'recording', 'privacy', 'billing'] as const;
export const SettingsTabSchema = z.enum(SETTINGS_TABS);
export type SettingsTab = z.infer<typeof SettingsTabSchema>;

/** GET and PUT answer every tab, and which tabs the person has saved (the others are defaults). */
export const SettingsResponseSchema = z.object({
  settings: UserSettingsSchema,
  savedTabs: z.array(SettingsTabSchema),
});
export type SettingsResponse = z.infer<typeof SettingsResponseSchema>;

/** PUT /api/v1/settings/:tab bodies: any subset of the tab's fields; an unknown field is refused. */
export const SETTINGS_PATCH_SCHEMAS = {
  notifications: z.strictObject(z.partial(NotificationSettingsSchema).shape),
  recording: z.strictObject(z.partial(RecordingSettingsSchema).shape),
  privacy: z.strictObject(z.partial(PrivacySettingsSchema).shape),
  billing: z.strictObject(z.partial(BillingSettingsSchema).shape),
} as const;
export type SettingsPatch<T extends SettingsTab> = Partial<UserSettings[T]>;

/** Spec §2 /settings and §9, word for word. */
export const NOTIFICATION_DEFAULTS: NotificationSettings = {
  meetingReminders: true,
  transcriptionComplete: true,
  aiInsightsReady: true,
  teamActivity: false,
  productUpdates: true,
  actionItems: true,
  mentions: true,
  teamInvitations: true,
};

export const RECORDING_DEFAULTS: RecordingSettings = {
  quality: 'high',
  format: 'mp3',
  speakerDiarization: true,
  automaticPunctuation: true,
  fillerWordRemoval: false,
  aiSummary: true,
};

export const PRIVACY_DEFAULTS: PrivacySettings = {
  anonymizedUsage: true,
  errorReporting: true,
  aiImprovement: false,
  autoDelete: '90days', // spec §9: default auto-delete 90 days
};

/** Billing starts from the account's own name and email until the person saves their own. */
export const billingDefaults = (account: { name?: string | null; email?: string | null }): BillingSettings => ({
  name: account.name ?? '',
  email: account.email ?? '',
  company: '',
  address: '',
  city: '',
  state: '',
  zip: '',
  country: '',
});

export const settingsDefaults = (account: { name?: string | null; email?: string | null }): UserSettings => ({
  notifications: NOTIFICATION_DEFAULTS,
  recording: RECORDING_DEFAULTS,
  privacy: PRIVACY_DEFAULTS,
  billing: billingDefaults(account),
});

const TAB_SCHEMAS = {
  notifications: NotificationSettingsSchema,
  recording: RecordingSettingsSchema,
  privacy: PrivacySettingsSchema,
  billing: BillingSettingsSchema,
} as const;

/**
 * Reads a stored document field by field over the defaults: a field that is missing, of the wrong
 * type or no longer a valid choice keeps its default, and unknown fields are dropped, so a document
 * written by an older (or newer) version never breaks the screen or the pipeline.
 */
export function readSettingsDocument(stored: unknown, defaults: UserSettings): UserSettings {
  const document = isRecord(stored) ? stored : {};
  return {
    notifications: readTab(document.notifications, 'notifications', defaults.notifications),
    recording: readTab(document.recording, 'recording', defaults.recording),
    privacy: readTab(document.privacy, 'privacy', defaults.privacy),
    billing: readTab(document.billing, 'billing', defaults.billing),
  };
}

function readTab<T extends SettingsTab>(stored: unknown, tab: T, defaults: UserSettings[T]): UserSettings[T] {
  // Every field of the shape comes from a default or a value its own schema accepted.
  return TAB_SCHEMAS[tab].parse({ ...defaults, ...validFieldsOf(tab, stored) }) as UserSettings[T];
}

/** The fields of `stored` that are valid values of the tab's fields; anything else is left out. */
export function validFieldsOf<T extends SettingsTab>(tab: T, stored: unknown): SettingsPatch<T> {
  const fields: Record<string, unknown> = {};
  if (isRecord(stored)) {
    const shape: Record<string, z.ZodMiniType> = TAB_SCHEMAS[tab].shape;
    for (const [field, schema] of Object.entries(shape)) {
      const parsed = schema.safeParse(stored[field]);
      if (parsed.success) fields[field] = parsed.data;
    }
  }
  return SETTINGS_PATCH_SCHEMAS[tab].parse(fields) as SettingsPatch<T>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const settingsTabEndpoint = <T extends SettingsTab>(tab: T) =>
  defineEndpoint({ method: 'PUT', path: `/api/v1/settings/${tab}`, body: SETTINGS_PATCH_SCHEMAS[tab], response: SettingsResponseSchema, tag: 'settings' });

/** GET answers every tab; one PUT per tab, so each body has its own schema. */
export const settingsEndpoints = {
  get: defineEndpoint({ method: 'GET', path: '/api/v1/settings', response: SettingsResponseSchema, tag: 'settings' }),
  notifications: settingsTabEndpoint('notifications'),
  recording: settingsTabEndpoint('recording'),
  privacy: settingsTabEndpoint('privacy'),
  billing: settingsTabEndpoint('billing'),
};
