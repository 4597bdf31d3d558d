import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { GoogleCalendarConnection } from './connections/google-calendar-connection.tsx';
import { SlackConnection } from './connections/slack-connection.tsx';
import { TeamsConnection } from './connections/teams-connection.tsx';

/** 'Connected Accounts' (spec §2): Microsoft Teams, Google Calendar and Slack, each its own row with its state. */
export function ConnectedAccountsCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Connected Accounts</CardTitle>
        <CardDescription>Services Parley can work with.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-3">
          <TeamsConnection />
          <GoogleCalendarConnection />
          <SlackConnection />
        </ul>
      </CardContent>
    </Card>
  );
}
