// The data dir holds keys, the ledger and TLS material: only the service's own user may list or read it. Modes
// are set explicitly after creation, since the process umask would otherwise decide them.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';

/** Creates `dir` (and its parents) if needed, and makes it 0700. */
export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Creates `file` empty if it does not exist, and makes it 0600 (SQLite gives its -wal and -shm the same mode). */
export function privateFile(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}

/** Makes each of `files` that exists 0600 (files an earlier version left readable by others). */
export function tightenExisting(files: readonly string[]): void {
  for (const f of files) if (existsSync(f)) chmodSync(f, 0o600);
}
