import { CheckIcon, CopyIcon, LinkIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from '#web/lib/toast.ts';
import type { CreatedShareLink } from '#shared/contracts/sharing.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '#web/components/ui/dialog.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { copyText } from '#web/lib/clipboard.ts';
import { useCreateShareLink, useRevokeShareLink, useShareLinks } from './api.ts';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

type ShareDialogProps = { meetingId: string; title: string; open: boolean; onOpenChange: (open: boolean) => void };

/** Creates a read-only link to one meeting, copies it, and lists the active links with Revoke. */
export function ShareDialog({ meetingId, title, open, onOpenChange }: ShareDialogProps) {
  const links = useShareLinks(meetingId, open);
  const create = useCreateShareLink(meetingId);
  const revoke = useRevokeShareLink(meetingId);
  // The token exists only in this answer: the server keeps a hash, so it can never be shown again.
  const [created, setCreated] = useState<CreatedShareLink | undefined>();
  const [copied, setCopied] = useState(false);

  const handleOpenChange = (next: boolean) => {
    if (!next) {
      setCreated(undefined);
      setCopied(false);
    }
    onOpenChange(next);
  };

  const createLink = () =>
    create.mutate(undefined, {
      onSuccess: async (link) => {
        setCreated(link);
        const ok = await copyText(link.url);
        setCopied(ok);
        if (ok) toast.success('Link copied', { description: 'Anyone with the link can view this meeting.' });
        else toast.success('Link created', { description: 'Copy it from the box in the dialog.' });
      },
      onError: (error) => toast.error(error.message),
    });

  const copyAgain = async () => {
    if (!created) return;
    const ok = await copyText(created.url);
    setCopied(ok);
    if (ok) toast.success('Link copied');
    else toast.error('Could not copy automatically. Select the link and copy it.');
  };

  const revokeLink = (shareId: string) =>
    revoke.mutate(shareId, {
      onSuccess: () => {
        if (created?.id === shareId) setCreated(undefined);
        toast.success('Link revoked', { description: 'It no longer opens this meeting.' });
      },
      onError: (error) => toast.error(error.message),
    });

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Share meeting</DialogTitle>
          <DialogDescription>
            Anyone with a link can read “{title}”: its summary, insights and transcript, without signing in. Revoke a link to turn it off.
          </DialogDescription>
        </DialogHeader>

        {created ? (
          <div className="grid gap-2">
            <div className="flex gap-2">
              <Input readOnly value={created.url} aria-label="Share link" onFocus={(e) => e.currentTarget.select()} />
              <Button type="button" variant="outline" onClick={copyAgain}>
                {copied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
                {copied ? 'Copied' : 'Copy'}
              </Button>
            </div>
            <p className="text-xs text-muted-foreground">This link is shown only now. Copy it before closing; you can always create another.</p>
          </div>
        ) : (
          <Button type="button" onClick={createLink} disabled={create.isPending}>
            <LinkIcon aria-hidden="true" />
            {create.isPending ? 'Creating link...' : 'Create link'}
          </Button>
        )}

        <section aria-labelledby="active-links-heading" className="grid gap-2">
          <h3 id="active-links-heading" className="text-sm font-medium">
            Active links
          </h3>
          {links.isPending ? (
            <Skeleton className="h-9" />
          ) : links.isError ? (
            <p className="text-sm text-destructive">The links could not be loaded: {links.error.message}</p>
          ) : links.data.items.length === 0 ? (
            <p className="text-sm text-muted-foreground">No active links.</p>
          ) : (
            <ul className="grid max-h-48 gap-1 overflow-y-auto" aria-label="Active links">
              {links.data.items.map((link) => {
                const label = `Created ${dateTime.format(new Date(link.createdAt))}`;
                return (
                  <li key={link.id} className="flex items-center justify-between gap-2 rounded-md border px-3 py-1.5 text-sm">
                    <span>
                      {label}
                      {created?.id === link.id && <span className="ml-2 text-xs text-muted-foreground">(new)</span>}
                    </span>
                    <Button
                      type="button"
                      size="sm"
                      variant="ghost"
                      className="text-destructive"
                      aria-label={`Revoke link ${label.toLowerCase()}`}
                      disabled={revoke.isPending && revoke.variables === link.id}
                      onClick={() => revokeLink(link.id)}
                    >
                      Revoke
                    </Button>
                  </li>
                );
              })}
            </ul>
          )}
        </section>
      </DialogContent>
    </Dialog>
  );
}
