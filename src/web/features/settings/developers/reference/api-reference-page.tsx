import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '#web/app/paths.ts';
import { PageHeader } from '#web/components/layout/page-header.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { FormError } from '#web/components/ui/form-error.tsx';

/** The parts of an OpenAPI 3.1 document this page shows. */
type Schema = Record<string, unknown>;
type Media = { schema?: Schema; example?: unknown };
type Operation = {
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema; description?: string }[];
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { description?: string; content?: Record<string, Media> }>;
};
type OpenApiDocument = {
  info: { title: string; version: string; description?: string };
  security?: Record<string, string[]>[];
  paths: Record<string, Record<string, Operation>>;
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const OPENAPI_URL = '/api/v1/openapi.json';

/** Who may call an operation, from its security requirement (the document's when it names none). */
function access(operation: Operation, fallback: OpenApiDocument['security']): string {
  const security = operation.security ?? fallback ?? [];
  if (security.length === 0) return 'public';
  const names = security.flatMap((s) => Object.keys(s));
  return names.includes('apiToken') ? 'API token or session' : 'session only';
}

/** A schema or an example, written out only once opened: the reference has hundreds of them. */
function JsonBlock({ label, value }: { label: string; value: unknown }) {
  const [open, setOpen] = useState(false);
  if (value === undefined) return null;
  return (
    <details className="text-sm" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="cursor-pointer text-muted-foreground">{label}</summary>
      {open && <pre className="mt-1 max-h-80 overflow-auto rounded bg-muted p-2 text-xs">{JSON.stringify(value, null, 2)}</pre>}
    </details>
  );
}

/**
 * /settings/api: the API reference, rendered here from the server's own OpenAPI document (nothing
 * loaded from elsewhere): every operation by tag, who may call it, its parameters, schemas and examples.
 */
export function ApiReferencePage() {
  const doc = useQuery({
    queryKey: ['openapi'],
    queryFn: async ({ signal }) => {
      const response = await fetch(OPENAPI_URL, { signal });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return (await response.json()) as OpenApiDocument;
    },
    staleTime: Infinity,
  });
  const byTag = new Map<string, { method: string; path: string; operation: Operation }[]>();
  for (const [path, item] of Object.entries(doc.data?.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, operation }]);
    }
  }
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <PageHeader title="API reference" description="Parley's REST API (OpenAPI 3.1), generated from the same schemas the server checks requests with." />
      <p className="text-sm">
        <Link className="underline" to={paths.settings.href('developers')}>
          ← Settings › Developers
        </Link>{' '}
        ·{' '}
        <a className="underline" href={OPENAPI_URL}>
          openapi.json
        </a>{' '}
        (import it into any OpenAPI tool)
      </p>
      {doc.isPending && <p className="text-sm text-muted-foreground">Loading the API reference…</p>}
      {doc.isError && <FormError>The API reference could not be loaded.</FormError>}
      {doc.data && (
        <>
          <Card>
            <CardHeader>
              <CardTitle>
                {doc.data.info.title} {doc.data.info.version}
              </CardTitle>
            </CardHeader>
            <CardContent>
              <pre className="whitespace-pre-wrap font-sans text-sm">{doc.data.info.description}</pre>
            </CardContent>
          </Card>
          {[...byTag.entries()].map(([tag, operations]) => (
            <Card key={tag}>
              <CardHeader>
                <CardTitle className="capitalize">{tag}</CardTitle>
                <CardDescription>{operations.length} operations</CardDescription>
              </CardHeader>
              <CardContent className="grid gap-4">
                {operations.map(({ method, path, operation }) => {
                  const [status, answer] = Object.entries(operation.responses ?? {})[0] ?? [];
                  const request = operation.requestBody?.content?.['application/json'];
                  const response = answer?.content?.['application/json'];
                  return (
                    <section key={`${method} ${path}`} className="grid gap-1 border-t pt-3" aria-label={`${method.toUpperCase()} ${path}`}>
                      <div className="flex flex-wrap items-center gap-2">
                        <Badge variant="outline" className="font-mono uppercase">
                          {method}
                        </Badge>
                        <code className="text-sm font-medium">{path}</code>
                        <span className="text-xs text-muted-foreground">{access(operation, doc.data.security)}</span>
                      </div>
                      {operation.summary && <p className="text-sm text-muted-foreground">{operation.summary}</p>}
                      {operation.parameters && operation.parameters.length > 0 && (
                        <p className="text-sm">
                          Parameters:{' '}
                          {operation.parameters.map((p) => (
                            <code key={`${p.in}:${p.name}`} className="mr-2">
                              {p.name}
                              {p.required ? '' : '?'} ({p.in})
                            </code>
                          ))}
                        </p>
                      )}
                      <JsonBlock label="Request body" value={request?.schema} />
                      <JsonBlock label="Example request" value={request?.example} />
                      <JsonBlock label={`Response ${status ?? ''}`} value={response?.schema} />
                      <JsonBlock label="Example response" value={response?.example} />
                    </section>
                  );
                })}
              </CardContent>
            </Card>
          ))}
        </>
      )}
    </div>
  );
}
