import { CalendarIcon, type LucideIcon } from 'lucide-react';
import { toast } from '#web/lib/toast.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { notAvailableYet } from '../settings-messages.ts';
import { SlackConnection } from './connections/slack-connection.tsx';
import { TeamsConnection } from './connections/teams-connection.tsx';

const ACCOUNTS: { name: string; description: string; icon: LucideIcon }[] = [
  { name: 'Google Calendar', description: 'Schedule and record from calendar', icon: CalendarIcon },
];

/** 'Connected Accounts' (spec §2): Microsoft Teams and Slack in their own rows; Google Calendar's Connect says it is not available yet. */
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
          {ACCOUNTS.map((account) => (
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
          ))}
          <SlackConnection />
        </ul>
      </CardContent>
    </Card>
  );
}
