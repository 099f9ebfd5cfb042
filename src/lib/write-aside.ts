// A file replaced whole: written beside its place and renamed into it, so a process that reads it at the same
// moment (another start, a concurrent build) finds the old file or the new one, never half of either.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';

/**
 * Writes `data` to `file` that way, making its directory if needed; `privateToUser` creates the directory 0700
 * and the file 0600 (else the process umask decides). Throws what the file system throws.
 */
export function writeAside(file: string, data: string | Uint8Array, { privateToUser = false } = {}): void {
  mkdirSync(path.dirname(file), { recursive: true, ...(privateToUser ? { mode: 0o700 } : {}) });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, data, privateToUser ? { mode: 0o600 } : {});
  renameSync(tmp, file);
}
