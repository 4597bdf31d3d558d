import { UsersIcon } from 'lucide-react';
import { ChatWebhookConnection } from './chat-webhook-connection.tsx';
import { TeamsMeetingSync } from './teams-meeting-sync.tsx';

/**
 * Connected Accounts › Microsoft Teams: notes posted to a channel through a Workflows webhook, and
 * the meeting transcripts of a connected Microsoft account imported (below the channel).
 */
export function TeamsConnection() {
  return (
    <ChatWebhookConnection
      provider="teams"
      name="Microsoft Teams"
      description="Sync meeting recordings"
      icon={UsersIcon}
      placeholder="https://….logic.azure.com:443/workflows/…"
      howTo={
        <>
          In Teams, open the channel’s “…” menu › <strong>Workflows</strong> › “Post to a channel when a webhook request is received”, finish the steps and
          paste the URL it shows here. Meeting notes are posted there as a card when they are ready.
        </>
      }
      note={<TeamsMeetingSync />}
    />
  );
}
