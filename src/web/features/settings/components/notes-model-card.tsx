import { useEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { paths } from '#web/app/paths.ts';
import { useNotesEngines } from '../notes-model-api.ts';

/** The card's anchor (paths.settings.notesModel): the notes of a meeting link here. */
const NOTES_MODEL_ANCHOR = 'notes-model';
const TITLE = 'Notes Model';

/**
 * Settings › Recording: what writes meeting notes on this installation, and how a model is
 * connected. The model is the server's, not the account's (one for everybody, set where the
 * server runs), so the card says who connects it and how rather than offering fields that could
 * not be saved.
 */
export function NotesModelCard() {
  const query = useNotesEngines();
  const ref = useRef<HTMLDivElement>(null);
  const { hash } = useLocation();
  useEffect(() => {
    if (hash === `#${NOTES_MODEL_ANCHOR}`) ref.current?.scrollIntoView?.({ block: 'start' });
  }, [hash]);
  const llm = query.data?.engines.find((engine) => engine.name === 'llm');
  return (
    <Card id={NOTES_MODEL_ANCHOR} ref={ref} role="region" aria-labelledby={`${NOTES_MODEL_ANCHOR}-title`}>
      <CardHeader>
        <CardTitle id={`${NOTES_MODEL_ANCHOR}-title`}>{TITLE}</CardTitle>
        <CardDescription>
          Meeting notes (summary, key points, action items, decisions and topics) are written on this server. Without a model, its local engine writes them,
          offline; a connected model writes fuller summaries.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        <p role="status">
          {!query.data
            ? query.isError
              ? 'Which engine writes notes could not be read.'
              : 'Reading which engine writes notes…'
            : query.data.inUse === 'llm'
              ? `Notes are written by a connected model: ${llm?.detail ?? 'an LLM'}.`
              : llm && llm.detail !== 'not configured'
                ? `Notes are written by the local engine: the connected model (${llm.detail}) is not in use${llm.reason ? ` (${llm.reason})` : ''}.`
                : 'Notes are written by the local engine: no model is connected.'}
        </p>
        <p>
          To connect one, whoever runs this server sets <code>NOTES_LLM_URL</code> to Ollama (<code>http://localhost:11434</code>) or any OpenAI-compatible
          endpoint and <code>NOTES_LLM_MODEL</code> to its model, then restarts it. Regenerate notes on a meeting to have them written again.
        </p>
        <Link to={paths.status.href()} className="justify-self-start text-primary underline-offset-4 hover:underline">
          Notes engine status
        </Link>
      </CardContent>
    </Card>
  );
}
