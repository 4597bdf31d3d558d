import fs from 'node:fs';
import path from 'node:path';

/**
 * The data folder holds the database, recordings, uploads, the development outbox and the secret
 * key: nobody but the server's own user reads any of it, whatever the umask (022 would make every
 * file 0644 and every folder 0755).
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates the folder (and missing parents) 0700, and makes an existing one 0700. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Creates the file empty if it is missing, 0600 either way (SQLite then gives its -wal and -shm files the same mode). */
export function ensurePrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  fs.chmodSync(file, PRIVATE_FILE_MODE);
}

/** 0600 for a file something else created (a library that opens files with the default mode). */
export function makePrivate(file: string): void {
  try {
    fs.chmodSync(file, PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Tightens a whole tree at start: folders 0700, files 0600. Installations made before this rule
 * (or files copied in by hand, e.g. a restored backup) are fixed by a restart. Symbolic links are
 * left alone: what they point to is not ours to change.
 */
export function tightenTree(dir: string): void {
  ensurePrivateDir(dir);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) tightenTree(full);
    else if (entry.isFile()) fs.chmodSync(full, PRIVATE_FILE_MODE);
  }
}
