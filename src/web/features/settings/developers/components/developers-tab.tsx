import { ApiTokensCard } from './api-tokens-card.tsx';
import { WebhooksCard } from './webhooks-card.tsx';

/** Settings › Developers: personal API tokens, outgoing webhooks and the API reference. */
export function DevelopersTab() {
  return (
    <div className="grid gap-6">
      <ApiTokensCard />
      <WebhooksCard />
    </div>
  );
}
