/**
 * The local notes engine's host: a child process of the server that writes a meeting's notes
 * (generate-local-notes.ts). Started by local-notes-engine.ts (built to
 * dist/server/local-notes-host.js). A child because the work is a second or two of pure
 * computation on an hour of talk, which on the server's thread would stop it answering anyone.
 */
import { serveHost } from '#server/lib/child-host/serve-host.ts';
import type { NotesDraft, NotesTranscript } from '../../notes-types.ts';
import { generateLocalNotes, LOCAL_NOTES_STAGES } from './generate-local-notes.ts';

serveHost<Record<string, never>, { ready: true }, NotesTranscript, NotesDraft>({
  // The language model and chrono's patterns load with the module, before the first meeting.
  load: () => ({ ready: true }),
  run: (transcript, job) => generateLocalNotes(transcript, { onProgress: (part) => job.progress(part / LOCAL_NOTES_STAGES) }),
});
