import { Link } from 'react-router';
import { paths } from '#web/app/paths.ts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { ApiTokensCard } from './api-tokens-card.tsx';
import { WebhooksCard } from './webhooks-card.tsx';

/** Settings › Developers: personal API tokens, outgoing webhooks and the API reference. */
export function DevelopersTab() {
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>API and MCP</CardTitle>
          <CardDescription>Read and change your meetings from scripts, other tools and AI assistants.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-2 text-sm">
          <p>
            <Link className="font-medium underline" to={paths.apiReference.href()}>
              API reference
            </Link>{' '}
            — every endpoint of <code>/api/v1</code> with its schemas and examples (OpenAPI 3.1 at <code>/api/v1/openapi.json</code>).
          </p>
          <p>
            MCP server: <code>{`${window.location.origin}/mcp`}</code> (Streamable HTTP) with an API token as <code>Authorization: Bearer</code> — for Claude
            Desktop, Cursor, VS Code and other MCP clients.
          </p>
        </CardContent>
      </Card>
      <ApiTokensCard />
      <WebhooksCard />
    </div>
  );
}
