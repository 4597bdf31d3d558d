import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/**
 * The browser's safe copy of a recording: every MediaRecorder chunk is written to IndexedDB before
 * it is uploaded and deleted only once the server has acknowledged (and fsynced) those bytes. A
 * closed tab, a dropped network or a server restart therefore loses nothing acknowledged — and
 * nothing unacknowledged either, since it is still here.
 */
export type StoredRecording = {
  id: string;
  meetingId: string;
  title: string;
  mimeType: string;
  startedAt: string;
  /** Bytes recorded so far (the end of the last chunk). */
  bytesRecorded: number;
  /** Bytes the server has acknowledged. */
  bytesAcked: number;
  /** The recorder has stopped: no more chunks will come. */
  stopped: boolean;
  durationSeconds: number;
  uploadUrl: string | null;
};

type StoredChunk = { recordingId: string; seq: number; start: number; size: number; blob: Blob };

interface RecordingDb extends DBSchema {
  recordings: { key: string; value: StoredRecording };
  chunks: { key: [string, number]; value: StoredChunk; indexes: { byRecording: string } };
}

let dbPromise: Promise<IDBPDatabase<RecordingDb>> | undefined;

/**
 * Recordings an uploader of this page is sending now (its own recording, or one being resumed):
 * not "unfinished" while that runs, so the pending-uploads banner never offers to resume them.
 */
const uploading = new Set<string>();
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

/** Called when the recordings held here change: one removed, an upload begun or ended. */
export function onRecordingsChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Marks a recording as being uploaded by this page until the returned release is called. */
export function claimUpload(id: string): () => void {
  uploading.add(id);
  changed();
  return () => {
    uploading.delete(id);
    changed();
  };
}

function db(): Promise<IDBPDatabase<RecordingDb>> {
  dbPromise ??= openDB<RecordingDb>('parley-recordings', 1, {
    upgrade(database) {
      database.createObjectStore('recordings', { keyPath: 'id' });
      const chunks = database.createObjectStore('chunks', { keyPath: ['recordingId', 'seq'] });
      chunks.createIndex('byRecording', 'recordingId');
    },
  });
  return dbPromise;
}

export async function createRecording(input: Pick<StoredRecording, 'meetingId' | 'title' | 'mimeType'>): Promise<StoredRecording> {
  const recording: StoredRecording = {
    id: crypto.randomUUID(),
    ...input,
    startedAt: new Date().toISOString(),
    bytesRecorded: 0,
    bytesAcked: 0,
    stopped: false,
    durationSeconds: 0,
    uploadUrl: null,
  };
  await (await db()).put('recordings', recording);
  return recording;
}

export async function getRecording(id: string): Promise<StoredRecording | undefined> {
  return (await db()).get('recordings', id);
}

async function update(id: string, change: (r: StoredRecording) => Partial<StoredRecording>): Promise<StoredRecording | undefined> {
  const database = await db();
  const tx = database.transaction('recordings', 'readwrite');
  const current = await tx.store.get(id);
  if (!current) return undefined;
  const next = { ...current, ...change(current) };
  await tx.store.put(next);
  await tx.done;
  return next;
}

/** Appends a chunk and returns the new recorded length; one transaction, so length and data agree. */
export async function appendChunk(id: string, blob: Blob, durationSeconds: number): Promise<number> {
  const database = await db();
  const tx = database.transaction(['recordings', 'chunks'], 'readwrite');
  const recording = await tx.objectStore('recordings').get(id);
  if (!recording) throw new Error('recording not found');
  // The chunk's byte offset doubles as its sequence number: unique and in recording order.
  await tx.objectStore('chunks').put({ recordingId: id, seq: recording.bytesRecorded, start: recording.bytesRecorded, size: blob.size, blob });
  const bytesRecorded = recording.bytesRecorded + blob.size;
  await tx.objectStore('recordings').put({ ...recording, bytesRecorded, durationSeconds });
  await tx.done;
  return bytesRecorded;
}

export const markStopped = (id: string, durationSeconds?: number) =>
  update(id, (r) => ({ stopped: true, durationSeconds: durationSeconds ?? r.durationSeconds }));

export const setUploadUrl = (id: string, uploadUrl: string) => update(id, () => ({ uploadUrl }));

/** Records the server's acknowledged offset and drops every chunk wholly below it. */
export async function acknowledge(id: string, offset: number): Promise<void> {
  const database = await db();
  const tx = database.transaction(['recordings', 'chunks'], 'readwrite');
  const recording = await tx.objectStore('recordings').get(id);
  if (recording && offset > recording.bytesAcked) await tx.objectStore('recordings').put({ ...recording, bytesAcked: offset });
  let cursor = await tx.objectStore('chunks').index('byRecording').openCursor(id);
  while (cursor) {
    if (cursor.value.start + cursor.value.size <= offset) await cursor.delete();
    cursor = await cursor.continue();
  }
  await tx.done;
}

/** The recorded bytes in [start, end), from the chunks still held. */
export async function readRange(id: string, start: number, end: number): Promise<Blob> {
  const chunks = await (await db()).getAllFromIndex('chunks', 'byRecording', id);
  chunks.sort((a, b) => a.start - b.start);
  const parts: Blob[] = [];
  for (const chunk of chunks) {
    const chunkEnd = chunk.start + chunk.size;
    if (chunkEnd <= start || chunk.start >= end) continue;
    parts.push(chunk.blob.slice(Math.max(0, start - chunk.start), Math.min(chunk.size, end - chunk.start)));
  }
  const blob = new Blob(parts);
  if (blob.size !== end - start) throw new Error(`bytes ${start}–${end} are no longer held locally`);
  return blob;
}

export async function removeRecording(id: string): Promise<void> {
  const database = await db();
  const tx = database.transaction(['recordings', 'chunks'], 'readwrite');
  await tx.objectStore('recordings').delete(id);
  let cursor = await tx.objectStore('chunks').index('byRecording').openCursor(id);
  while (cursor) {
    await cursor.delete();
    cursor = await cursor.continue();
  }
  await tx.done;
  changed();
}

/**
 * Recordings whose bytes have not all reached the server (a closed tab, a crash, an outage) and that
 * no uploader of this page is sending right now.
 */
export async function unfinishedRecordings(): Promise<StoredRecording[]> {
  const all = await (await db()).getAll('recordings');
  // A finished upload removes its recording, so whatever remains is unfinished; one that never
  // got a single chunk holds nothing worth offering.
  for (const empty of all.filter((r) => r.bytesRecorded === 0 && r.stopped)) await removeRecording(empty.id);
  return all.filter((r) => r.bytesRecorded > 0 && !uploading.has(r.id));
}
