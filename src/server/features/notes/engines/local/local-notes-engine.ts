import { createHostSlot, hostEntry, startHost, type Host } from '#server/lib/child-host/host-client.ts';
import { checkCitations } from '../../citations.ts';
import type { NotesDraft, NotesEngine, NotesTranscript } from '../../notes-types.ts';
import { LOCAL_NOTES_STAGES } from './generate-local-notes.ts';

type LocalHost = Host<{ ready: true }, NotesTranscript, NotesDraft>;

export type LocalNotesEngine = NotesEngine & { close: () => Promise<void> };

/**
 * The local notes engine as the server runs it: in its own process (local-notes-host.ts), started
 * on first use and let go after `idleMs` without work; always available, no network. Its items are
 * extractive, so their citations check by construction; they are checked anyway, like the LLM's.
 */
export function createLocalNotesEngine(options: { idleMs?: number } = {}): LocalNotesEngine {
  const slot = createHostSlot<LocalHost>();
  const host = () =>
    slot.get('local-notes', () =>
      startHost<Record<string, never>, { ready: true }, NotesTranscript, NotesDraft>({
        entry: hostEntry(import.meta.url, 'local-notes-host'),
        config: {},
        // One synchronous call: a cancelled run ends the host, the next one starts afresh.
        abort: 'kill',
        idleMs: options.idleMs ?? 10 * 60_000,
        loadTimeoutMs: 60_000,
        words: { stopped: 'the notes process stopped', failed: 'the notes could not be written', cancelled: 'Writing the notes was cancelled.' },
      }),
    );
  return {
    name: 'local',
    async generate(transcript, { signal, onProgress }) {
      const draft = await (
        await host()
      ).run(transcript, {
        signal,
        onProgress: (fraction) => onProgress?.(Math.max(1, Math.round(fraction * LOCAL_NOTES_STAGES)), LOCAL_NOTES_STAGES),
      });
      const checked = checkCitations(draft, transcript);
      return { ...checked.draft, engine: 'local', droppedUncited: checked.droppedUncited, localFallbackParts: 0 };
    },
    close: () => slot.close(),
  };
}
