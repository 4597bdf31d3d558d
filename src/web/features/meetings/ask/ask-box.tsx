import { MessageCircleQuestionIcon, LoaderCircleIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { MAX_QUESTION_LENGTH, type AskCitation, type AskResponse } from '#shared/contracts/ask.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { paths } from '#web/app/paths.ts';
import { formatClock } from '#web/lib/format.ts';
import { askStreaming } from './ask-api.ts';

type State = { kind: 'idle' } | { kind: 'asking'; text: string } | { kind: 'answered'; answer: AskResponse } | { kind: 'failed'; message: string };

/** "Tomás · 01:05": who said it and when. */
const momentLabel = (c: AskCitation) => `${c.speaker ?? 'Unknown speaker'} · ${formatClock(c.startMs / 1000)}`;

/**
 * "Ask" (issue 14): a question in plain words over all the person's meetings (history) or one
 * (the meeting page), answered as it streams, with citations — meeting, speaker, time — each a link
 * to the moment. `onMoment` lets the meeting page seek its own player instead of navigating.
 */
export function AskBox({ meetingId, onMoment }: { meetingId?: string; onMoment?: (citation: AskCitation) => boolean }) {
  const [question, setQuestion] = useState('');
  const [state, setState] = useState<State>({ kind: 'idle' });
  const running = useRef<AbortController | null>(null);
  const inputId = useId();
  const headingId = useId();
  useEffect(() => () => running.current?.abort(), []);

  const submit = async () => {
    const asked = question.trim();
    if (!asked) return;
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setState({ kind: 'asking', text: '' });
    try {
      const answer = await askStreaming(
        { question: asked, ...(meetingId ? { meetingId } : {}) },
        (text) => setState((s) => (s.kind === 'asking' ? { kind: 'asking', text: s.text + text } : s)),
        controller.signal,
      );
      if (!controller.signal.aborted) setState({ kind: 'answered', answer });
    } catch (error) {
      if (controller.signal.aborted) return;
      setState({ kind: 'failed', message: error instanceof Error ? error.message : 'The question could not be answered.' });
    }
  };

  const follow = (citation: AskCitation) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (onMoment?.(citation)) event.preventDefault();
  };

  return (
    <section aria-labelledby={headingId} className="mb-6 rounded-lg border bg-card p-4">
      <h2 id={headingId} className="mb-2 flex items-center gap-2 font-semibold">
        <MessageCircleQuestionIcon className="size-4" aria-hidden="true" />
        {meetingId ? 'Ask about this meeting' : 'Ask your meetings'}
      </h2>
      <form
        className="flex flex-col gap-2 sm:flex-row"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label htmlFor={inputId} className="sr-only">
          Question
        </label>
        <Input
          id={inputId}
          value={question}
          onChange={(e) => setQuestion(e.target.value)}
          placeholder={meetingId ? 'e.g. What did we decide about the budget?' : 'e.g. When is the launch, and who said so?'}
          maxLength={MAX_QUESTION_LENGTH}
          autoComplete="off"
        />
        <Button type="submit" disabled={state.kind === 'asking' || question.trim() === ''}>
          {state.kind === 'asking' && <LoaderCircleIcon className="animate-spin" aria-hidden="true" />}
          Ask
        </Button>
      </form>
      <div aria-live="polite" aria-busy={state.kind === 'asking'} className="mt-3 empty:mt-0">
        {state.kind === 'asking' && <p className="text-sm text-muted-foreground">{state.text || 'Looking through your meetings…'}</p>}
        {state.kind === 'failed' && (
          <p role="alert" className="text-sm text-destructive">
            {state.message}
          </p>
        )}
        {state.kind === 'answered' && <Answer answer={state.answer} follow={follow} />}
      </div>
    </section>
  );
}

type Follow = (citation: AskCitation) => (event: MouseEvent<HTMLAnchorElement>) => void;

function CitationLink({ citation, follow, children }: { citation: AskCitation; follow: Follow; children: ReactNode }) {
  return (
    <Link
      to={paths.meeting.href(citation.meetingId, { t: citation.startMs })}
      onClick={follow(citation)}
      className="block rounded-md border px-2.5 py-1.5 transition-colors hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
    >
      {children}
    </Link>
  );
}

/** The answer's sentences, each with links to the moments that hold it. */
function Sentences({ answer, follow }: { answer: AskResponse; follow: Follow }) {
  return (
    <p>
      {answer.sentences.map((sentence, i) => (
        <span key={i}>
          {i > 0 && ' '}
          {sentence.text}
          {sentence.citations.map((c) => (
            <sup key={c} className="ml-0.5">
              <Link
                to={paths.meeting.href(answer.citations[c]!.meetingId, { t: answer.citations[c]!.startMs })}
                onClick={follow(answer.citations[c]!)}
                aria-label={`Source ${c + 1}: ${answer.citations[c]!.meetingTitle || 'Untitled meeting'}, ${momentLabel(answer.citations[c]!)}`}
                className="text-primary underline-offset-2 hover:underline"
              >
                [{c + 1}]
              </Link>
            </sup>
          ))}
        </span>
      ))}
    </p>
  );
}

function Answer({ answer, follow }: { answer: AskResponse; follow: Follow }) {
  if (answer.mode === 'llm') {
    return (
      <div className="grid gap-3" aria-label="Answer">
        <Sentences answer={answer} follow={follow} />
        <ol className="grid gap-1.5 text-sm" aria-label="Sources">
          {answer.citations.map((citation, i) => (
            <li key={citation.segmentId}>
              <CitationLink citation={citation} follow={follow}>
                <span className="block text-xs text-muted-foreground">
                  [{i + 1}] {citation.meetingTitle || 'Untitled meeting'} · {momentLabel(citation)}
                </span>
                <span className="line-clamp-2">{citation.text}</span>
              </CitationLink>
            </li>
          ))}
        </ol>
      </div>
    );
  }
  const meetings = [...new Set(answer.citations.map((c) => c.meetingId))];
  return (
    <div className="grid gap-3" aria-label="Answer">
      {answer.sentences.length > 0 && <Sentences answer={answer} follow={follow} />}
      {answer.notice && <p className="text-sm text-muted-foreground">{answer.notice}</p>}
      {meetings.map((id) => {
        const moments = answer.citations.filter((c) => c.meetingId === id);
        const title = moments[0]!.meetingTitle || 'Untitled meeting';
        return (
          <div key={id}>
            <h3 className="mb-1 text-sm font-medium">{title}</h3>
            <ul className="grid gap-1.5 text-sm" aria-label={`Moments in ${title}`}>
              {moments.map((citation) => (
                <li key={citation.segmentId}>
                  <CitationLink citation={citation} follow={follow}>
                    <span className="block text-xs text-muted-foreground">{momentLabel(citation)}</span>
                    <span className="line-clamp-2">{citation.text}</span>
                  </CitationLink>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </div>
  );
}
