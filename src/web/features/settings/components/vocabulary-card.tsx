import { useId, useState } from 'react';
import { z } from 'zod/mini';
import { MAX_TERM_LENGTH, MAX_VOCABULARY_TERMS, VocabularyTermsSchema, type TeamVocabulary } from '#shared/contracts/vocabulary.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Separator } from '#web/components/ui/separator.tsx';
import { toast } from '#web/lib/toast.ts';
import { cn } from '#web/lib/utils.ts';
import { useSaveVocabulary, useVocabulary } from '../vocabulary-api.ts';

const TITLE = 'Custom Vocabulary';

/** One term a line; blank lines are nothing. */
const termsOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** What is wrong with the list, in the contract's own words; undefined when it would be saved. */
function problemOf(terms: string[]): string | undefined {
  const parsed = z.safeParse(VocabularyTermsSchema, terms);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0]!;
  const line = typeof issue.path[0] === 'number' ? `Line ${issue.path[0] + 1}: ` : '';
  return `${line}${issue.message}`;
}

/**
 * Settings › Recording's custom vocabulary: the person's own names, products and terms, and each
 * of their teams' (the team's owner and admins edit it; members see it). Transcription is given
 * them and corrects near-misses; the notes spell them this way. What the plan allows is said under
 * the list (on a self-hosted installation, that everything is included).
 */
export function VocabularyCard() {
  const query = useVocabulary();
  const data = query.data;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{TITLE}</CardTitle>
        <CardDescription>
          Names, products and terms your meetings use, one per line (at most {MAX_VOCABULARY_TERMS}, each up to {MAX_TERM_LENGTH} characters). Transcription
          listens for them and corrects words heard nearly like them, keeping what was heard so you can undo it; meeting notes spell them this way.
        </CardDescription>
      </CardHeader>
      {!data ? (
        <CardContent>
          <p role={query.isError ? 'alert' : 'status'} className="text-sm text-muted-foreground">
            {query.isError ? `Your vocabulary could not be loaded: ${query.error.message}` : 'Loading your vocabulary…'}
          </p>
        </CardContent>
      ) : (
        <>
          <CardContent className="grid gap-6">
            <p className="text-sm text-muted-foreground" data-testid="vocabulary-plan">
              {data.note}
            </p>
            <TermsEditor
              key={data.terms.join('\n')}
              label="Your vocabulary"
              teamId={null}
              saved={data.terms}
              disabled={!data.included && data.terms.length === 0}
              saveLabel="Save Vocabulary"
            />
            {data.teams.map((team) => (
              <div key={team.teamId} className="grid gap-6">
                <Separator />
                <TeamTerms team={team} />
              </div>
            ))}
          </CardContent>
        </>
      )}
    </Card>
  );
}

function TeamTerms({ team }: { team: TeamVocabulary }) {
  if (team.canEdit)
    return (
      <TermsEditor
        key={team.terms.join('\n')}
        label={`${team.teamName} team vocabulary`}
        teamId={team.teamId}
        saved={team.terms}
        disabled={false}
        saveLabel="Save Team Vocabulary"
      />
    );
  return (
    <section aria-label={`${team.teamName} team vocabulary`} className="grid gap-2">
      <h3 className="text-sm font-medium">{team.teamName} team vocabulary</h3>
      <p className="text-sm text-muted-foreground">
        {team.terms.length > 0
          ? `Used for meetings shared with ${team.teamName}; set by the team’s owner and admins: ${team.terms.join(', ')}.`
          : `${team.teamName} has no vocabulary yet; the team’s owner and admins can add one.`}
      </p>
    </section>
  );
}

/** Keyed by the saved terms: the server's answer (after a save, or read again) starts a fresh box. */
function TermsEditor({
  label,
  teamId,
  saved,
  disabled,
  saveLabel,
}: {
  label: string;
  teamId: string | null;
  saved: string[];
  disabled: boolean;
  saveLabel: string;
}) {
  const id = useId();
  const [text, setText] = useState(saved.join('\n'));
  const savedText = saved.join('\n');
  const save = useSaveVocabulary();
  const terms = termsOf(text);
  const problem = problemOf(terms);
  const onSave = () => {
    if (problem) return;
    save.mutate(
      { teamId, terms },
      { onSuccess: () => toast.success(teamId === null ? 'Vocabulary saved' : 'Team vocabulary saved'), onError: (error) => toast.error(error.message) },
    );
  };
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <textarea
        id={id}
        rows={5}
        value={text}
        disabled={disabled}
        onChange={(event) => setText(event.target.value)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        placeholder={'Anika Okafor\nParley\nPostgreSQL'}
        className={cn(
          'border-input placeholder:text-muted-foreground w-full rounded-md border bg-transparent px-3 py-2 text-base shadow-xs outline-none md:text-sm',
          'focus-visible:border-ring focus-visible:ring-ring/50 focus-visible:ring-[3px] aria-invalid:border-destructive disabled:cursor-not-allowed disabled:opacity-50',
        )}
      />
      {problem ? (
        <p id={`${id}-problem`} role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      ) : null}
      <div className="flex justify-end">
        <Button onClick={onSave} disabled={disabled || save.isPending || problem !== undefined || text === savedText} aria-busy={save.isPending}>
          {saveLabel}
        </Button>
      </div>
    </div>
  );
}
