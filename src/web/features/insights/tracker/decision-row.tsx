import { ArrowRightLeftIcon, HistoryIcon } from 'lucide-react';
import { useId } from 'react';
import type { Decision, DecisionLink } from '#shared/contracts/tracker.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { cn } from '#web/lib/utils.ts';
import { useAnswerDecisionLink } from '../api.ts';
import { MeetingLink } from '../components/meeting-link.tsx';

/**
 * One decision of the register, linked to where it was said; marked superseded when a later
 * decision replaced it, and asking "Supersedes" / "Not related" where the server offers a link.
 */
export function DecisionRow({ decision }: { decision: Decision }) {
  const textId = useId();
  const superseded = decision.supersededBy.length > 0;
  return (
    <li className="grid gap-2 py-4 first:pt-0 last:pb-0" aria-labelledby={textId}>
      <span id={textId} className={cn('font-medium', superseded && 'text-muted-foreground line-through')}>
        {decision.text}
      </span>
      <div className="flex flex-wrap items-center gap-2">
        {superseded && (
          <Badge variant="outline">
            <HistoryIcon aria-hidden="true" />
            Superseded
          </Badge>
        )}
        <MeetingLink meeting={decision.meeting} atMs={decision.startMs} />
      </div>
      {decision.supersededBy.map((link) => (
        <LinkedDecision key={link.linkId} lead="Superseded by" link={link} />
      ))}
      {decision.supersedes.map((link) => (
        <LinkedDecision key={link.linkId} lead="Supersedes" link={link} />
      ))}
      {/* A teammate's decision: its owner alone answers whether it replaces an earlier one. */}
      {!decision.meeting.sharedBy && decision.suggestedSupersedes.map((link) => <SupersedeQuestion key={link.linkId} link={link} />)}
    </li>
  );
}

function LinkedDecision({ lead, link }: { lead: string; link: DecisionLink }) {
  return (
    <p className="text-sm text-muted-foreground">
      {lead} “{link.decision.text}” in <MeetingLink meeting={link.decision.meeting} atMs={link.decision.startMs} />
    </p>
  );
}

/** An earlier decision on the same subject this one may replace: the person confirms or rejects it. */
function SupersedeQuestion({ link }: { link: DecisionLink }) {
  const answer = useAnswerDecisionLink();
  const respond = (status: 'confirmed' | 'rejected') => answer.mutate({ linkId: link.linkId, status });
  return (
    <div className="grid gap-2 rounded-md border bg-muted/40 p-3 text-sm" role="group" aria-label="Does this replace an earlier decision?">
      <p className="flex items-start gap-2">
        <ArrowRightLeftIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        <span>
          Does this replace “{link.decision.text}” from <MeetingLink meeting={link.decision.meeting} atMs={link.decision.startMs} />?
        </span>
      </p>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" disabled={answer.isPending} onClick={() => respond('confirmed')}>
          Supersedes
        </Button>
        <Button size="sm" variant="outline" disabled={answer.isPending} onClick={() => respond('rejected')}>
          Not related
        </Button>
      </div>
    </div>
  );
}
