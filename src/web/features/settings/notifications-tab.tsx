import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Separator } from '#web/components/ui/separator.tsx';
import { NOTIFICATION_DEFAULTS, type NotificationSettings } from './preferences.ts';
import { reportSaved } from './save-feedback.ts';
import { SettingToggle } from './setting-toggle.tsx';
import { SETTINGS_MESSAGES } from './settings-messages.ts';
import { useStoredSettings } from './stored-settings.ts';

type Toggle = { field: keyof NotificationSettings; label: string; description: string };

const EMAIL_TOGGLES: Toggle[] = [
  { field: 'meetingReminders', label: 'Meeting Reminders', description: 'A reminder before meetings you plan to record.' },
  { field: 'transcriptionComplete', label: 'Transcription Complete', description: 'When a transcript is ready to read.' },
  { field: 'aiInsightsReady', label: 'AI Insights Ready', description: 'When key points, action items and decisions are found.' },
  { field: 'teamActivity', label: 'Team Activity', description: 'What your team records and shares.' },
  { field: 'productUpdates', label: 'Product Updates', description: 'New features and improvements.' },
];

const IN_APP_TOGGLES: Toggle[] = [
  { field: 'actionItems', label: 'Action Items', description: 'When an action item is assigned to you.' },
  { field: 'mentions', label: 'Mentions', description: 'When someone mentions you in a meeting note.' },
  { field: 'teamInvitations', label: 'Team Invitations', description: 'When you are invited to a team.' },
];

/** Notifications tab (spec §2 /settings): email and in-app toggles, kept in this browser for now. */
export function NotificationsTab() {
  const { values, set, save } = useStoredSettings('notifications', NOTIFICATION_DEFAULTS);
  const toggles = (list: Toggle[], prefix: string) =>
    list.map((toggle, index) => (
      <div key={toggle.field}>
        {index > 0 && <Separator />}
        <SettingToggle
          id={`${prefix}-${toggle.field}`}
          label={toggle.label}
          description={toggle.description}
          checked={values[toggle.field]}
          onCheckedChange={(checked) => set(toggle.field, checked)}
        />
      </div>
    ));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Notification Preferences</CardTitle>
        <CardDescription>Choose what you hear about. Parley does not send these notifications yet; your choices are kept for when it does.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <section aria-labelledby="email-notifications">
          <h3 id="email-notifications" className="font-medium">
            Email Notifications
          </h3>
          {toggles(EMAIL_TOGGLES, 'email')}
        </section>
        <Separator />
        <section aria-labelledby="in-app-notifications">
          <h3 id="in-app-notifications" className="font-medium">
            In-App Notifications
          </h3>
          {toggles(IN_APP_TOGGLES, 'in-app')}
        </section>
      </CardContent>
      <CardFooter className="justify-end">
        <Button onClick={() => reportSaved(save(), SETTINGS_MESSAGES.notificationsSaved)}>Save Preferences</Button>
      </CardFooter>
    </Card>
  );
}
