import { ServerIcon } from 'lucide-react';
import { installation } from '#web/lib/config.ts';
import { cn } from '#web/lib/utils.ts';

/**
 * What a self-hosted installation (no billing configured, /app-config.js) says beside the spec's
 * plans, prices and trial: they are kept word for word, and this says what is true here.
 */
export const SELF_HOSTED_MESSAGES = {
  statement: 'This installation is self-hosted: every feature is included.',
  plansNotSold: 'The plans are not sold here: no plan limits apply and nothing is billed.',
  noTrial: 'There is no trial to run out and nothing to pay.',
} as const;

/** The self-hosted statement, with an optional second sentence; nothing when this installation bills. */
export function SelfHostedNote({ detail, className }: { detail?: string; className?: string }) {
  if (installation().billing) return null;
  return (
    <p data-testid="self-hosted-note" className={cn('flex items-start justify-center gap-2 text-sm text-muted-foreground', className)}>
      <ServerIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
      <span>
        {SELF_HOSTED_MESSAGES.statement}
        {detail && ` ${detail}`}
      </span>
    </p>
  );
}
