import { useState, type FormEvent } from 'react';
import type { ApiTokenScope } from '#shared/contracts/api-tokens.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { FormError } from '#web/components/ui/form-error.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { ApiError } from '#web/lib/api-error.ts';
import { toast } from '#web/lib/toast.ts';
import { SelectField } from '../../components/select-field.tsx';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from '../api.ts';

const SCOPES = [
  { value: 'read', label: 'Read (GET requests)' },
  { value: 'write', label: 'Read and write' },
] as const;

const EXPIRIES = [
  { value: 'never', label: 'Never' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
] as const;

const when = (iso: string | null, never: string) => (iso ? new Date(iso).toLocaleString() : never);

/** Settings › Developers "API tokens": create one (shown once), see when each was last used, revoke. */
export function ApiTokensCard() {
  const tokens = useApiTokens();
  const create = useCreateApiToken();
  const revoke = useRevokeApiToken();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<'read' | 'write'>('read');
  const [expiry, setExpiry] = useState<(typeof EXPIRIES)[number]['value']>('never');
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);

  const onCreate = (event: FormEvent) => {
    event.preventDefault();
    const scopes: ApiTokenScope[] = scope === 'write' ? ['read', 'write'] : ['read'];
    const expiresAt = expiry === 'never' ? null : new Date(Date.now() + Number(expiry) * 86_400_000).toISOString();
    create.mutate(
      { name: name.trim(), scopes, expiresAt },
      {
        onSuccess: ({ token }) => {
          setCreated({ name: name.trim(), token });
          setName('');
        },
      },
    );
  };

  const onCopy = async (token: string) => {
    try {
      await navigator.clipboard.writeText(token);
      toast.success('Token copied');
    } catch {
      toast.error('The token could not be copied; select it and copy it by hand.');
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>API tokens</CardTitle>
        <CardDescription>
          Personal tokens for scripts and AI assistants: send one as <code>Authorization: Bearer &lt;token&gt;</code> to the API or the MCP server. A token acts
          as you, within its scope; it can never change your password, email, tokens or delete your account.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <form className="grid gap-4 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end" onSubmit={onCreate} aria-label="New API token">
          <div className="grid gap-2">
            <Label htmlFor="token-name">Token name</Label>
            <Input id="token-name" value={name} maxLength={100} placeholder="e.g. Weekly report script" onChange={(e) => setName(e.target.value)} />
          </div>
          <SelectField id="token-scope" label="Scope" value={scope} options={SCOPES} onChange={setScope} />
          <SelectField id="token-expiry" label="Expires" value={expiry} options={EXPIRIES} onChange={setExpiry} />
          <Button type="submit" disabled={name.trim() === '' || create.isPending}>
            Create token
          </Button>
        </form>
        {create.error && <FormError>{create.error instanceof ApiError ? create.error.message : 'The token could not be created.'}</FormError>}
        {created && (
          <div role="status" className="grid gap-2 rounded-lg border border-primary/40 bg-primary/5 p-3 text-sm">
            <p className="font-medium">Copy your new token “{created.name}” now: it will not be shown again.</p>
            <div className="flex flex-wrap items-center gap-2">
              <code aria-label="Your new API token" className="min-w-0 flex-1 break-all rounded bg-muted px-2 py-1">
                {created.token}
              </code>
              <Button type="button" size="sm" variant="outline" onClick={() => void onCopy(created.token)}>
                Copy
              </Button>
              <Button type="button" size="sm" variant="ghost" onClick={() => setCreated(null)}>
                Done
              </Button>
            </div>
          </div>
        )}
        {tokens.isPending ? (
          <p className="text-sm text-muted-foreground">Loading your tokens…</p>
        ) : tokens.isError ? (
          <FormError>Your tokens could not be loaded.</FormError>
        ) : tokens.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">You have no API tokens.</p>
        ) : (
          <ul className="grid gap-2" aria-label="API tokens">
            {tokens.data.map((token) => (
              <li key={token.id} className="flex flex-wrap items-center gap-3 rounded-lg border p-3 text-sm">
                <div className="grid min-w-0 flex-1 gap-0.5">
                  <span className="font-medium">{token.name}</span>
                  <span className="text-muted-foreground">
                    <code>{token.preview}</code> · {token.scopes.includes('write') ? 'read and write' : 'read only'} · created {when(token.createdAt, '')} ·
                    expires {when(token.expiresAt, 'never')} · last used {when(token.lastUsedAt, 'never')}
                  </span>
                </div>
                <Button
                  size="sm"
                  variant="outline"
                  aria-label={`Revoke ${token.name}`}
                  disabled={revoke.isPending}
                  onClick={() =>
                    revoke.mutate(token.id, {
                      onSuccess: () => toast.success('Token revoked', { description: `“${token.name}” no longer works.` }),
                      onError: (error) => toast.error('The token could not be revoked', { description: error instanceof ApiError ? error.message : undefined }),
                    })
                  }
                >
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
