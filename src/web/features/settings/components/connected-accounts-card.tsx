import { CalendarIcon, MessageSquareIcon, UsersIcon, type LucideIcon } from 'lucide-react';
import { toast } from '#web/lib/toast.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { notAvailableYet } from '../settings-messages.ts';
import { GoogleCalendarConnection } from './connections/google-calendar-connection.tsx';

const ACCOUNTS: { name: string; description: string; icon: LucideIcon }[] = [
  { name: 'Microsoft Teams', description: 'Sync meeting recordings', icon: UsersIcon },
  { name: 'Google Calendar', description: 'Schedule and record from calendar', icon: CalendarIcon },
  { name: 'Slack', description: 'Share insights and transcripts', icon: MessageSquareIcon },
];

/** 'Connected Accounts' (spec §2): Google Calendar is its own row; Connect on the others says they are not available yet. */
export function ConnectedAccountsCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Connected Accounts</CardTitle>
        <CardDescription>Services Parley can work with.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-3">
          {ACCOUNTS.map((account) =>
            account.name === 'Google Calendar' ? (
              <GoogleCalendarConnection key={account.name} />
            ) : (
              <li key={account.name} className="flex items-center gap-3 rounded-lg border p-3">
                <account.icon className="size-5 text-muted-foreground" aria-hidden="true" />
                <div className="grid flex-1 gap-0.5">
                  <span className="text-sm font-medium">{account.name}</span>
                  <span className="text-sm text-muted-foreground">{account.description}</span>
                </div>
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={`Connect ${account.name}`}
                  onClick={() => toast.info(notAvailableYet(`The ${account.name} integration`))}
                >
                  Connect
                </Button>
              </li>
            ),
          )}
        </ul>
      </CardContent>
    </Card>
  );
}
