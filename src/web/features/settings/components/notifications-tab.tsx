import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Separator } from '#web/components/ui/separator.tsx';
import { REMINDER_LEAD_MINUTES } from '#shared/contracts/calendar.ts';
import type { NotificationSettings } from '#shared/contracts/settings.ts';
import { SettingToggleSection, type ToggleSpec } from './setting-toggle.tsx';
import { SettingsLoadState } from './settings-load-state.tsx';
import { SettingsSaveFooter } from './settings-save-footer.tsx';
import { SETTINGS_MESSAGES } from '../settings-messages.ts';
import { useSettingsTab } from '../use-settings-tab.ts';

type Toggle = ToggleSpec<keyof NotificationSettings>;

const EMAIL_TOGGLES: Toggle[] = [
  {
    field: 'meetingReminders',
    label: 'Meeting Reminders',
    description: `An email ${REMINDER_LEAD_MINUTES} minutes before each event of your connected calendar, with its time, attendees and a Record link. Without a calendar connected (Profile › Connected Accounts), none are sent.`,
  },
  { field: 'transcriptionComplete', label: 'Transcription Complete', description: 'When a transcript is ready to read.' },
  { field: 'aiInsightsReady', label: 'AI Insights Ready', description: 'When key points, action items and decisions are found.' },
  { field: 'teamActivity', label: 'Team Activity', description: 'A daily digest of what your teams record and share, on days something happened.' },
  {
    field: 'productUpdates',
    label: 'Product Updates',
    description: 'New features and improvements. This Parley server runs on its own: it sends these only if its operator writes one.',
  },
];

const IN_APP_TOGGLES: Toggle[] = [
  { field: 'actionItems', label: 'Action Items', description: 'When someone gives you an action item: under the bell and by email.' },
  { field: 'mentions', label: 'Mentions', description: 'When your full name is said in a meeting shared with your team.' },
  { field: 'teamInvitations', label: 'Team Invitations', description: 'When you are invited to a team.' },
];

const TITLE = 'Notification Preferences';

/** Notifications tab (spec §2 /settings): email and in-app toggles, saved to the account. */
export function NotificationsTab() {
  const { query, values, set, save, isSaving } = useSettingsTab('notifications', {
    saved: SETTINGS_MESSAGES.notificationsSaved,
    failed: SETTINGS_MESSAGES.notificationsFailed,
  });
  if (!values) return <SettingsLoadState title={TITLE} query={query} />;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{TITLE}</CardTitle>
        <CardDescription>
          Choose what you hear about. Each email has a link to unsubscribe from it; in-app notifications appear under the bell at the top of the page.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <SettingToggleSection
          headingId="email-notifications"
          title="Email Notifications"
          idPrefix="email"
          toggles={EMAIL_TOGGLES}
          values={values}
          onChange={set}
          separated
        />
        <Separator />
        <SettingToggleSection
          headingId="in-app-notifications"
          title="In-App Notifications"
          idPrefix="in-app"
          toggles={IN_APP_TOGGLES}
          values={values}
          onChange={set}
          separated
        />
      </CardContent>
      <SettingsSaveFooter label="Save Preferences" isSaving={isSaving} onSave={save} />
    </Card>
  );
}
