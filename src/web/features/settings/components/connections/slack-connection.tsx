import { MessageSquareIcon } from 'lucide-react';
import { ChatWebhookConnection } from './chat-webhook-connection.tsx';
import { AddToSlack, SlackChannelPicker } from './slack-app-parts.tsx';

/** Connected Accounts › Slack (spec §2: share insights and transcripts): an incoming webhook, or the Slack app (“Add to Slack”). */
export function SlackConnection() {
  return (
    <ChatWebhookConnection
      provider="slack"
      name="Slack"
      description="Share insights and transcripts"
      icon={MessageSquareIcon}
      placeholder="https://hooks.slack.com/services/…"
      howTo={
        <>
          In Slack, create an app “From scratch” for your workspace, turn on <strong>Incoming Webhooks</strong>, choose “Add New Webhook to Workspace”, pick the
          channel and paste the URL here. Meeting notes are posted there when they are ready; “Share to Slack” on a meeting posts it on demand.
        </>
      }
      alternative={<AddToSlack />}
      connectedExtra={(state) => <SlackChannelPicker state={state} />}
    />
  );
}
