// What every CLI command receives (where to write, and the validated configuration) and what they share.
import { readFileSync } from 'node:fs';
import type { Config } from '../lib/config.ts';

export interface CliIo {
  stdout: { write(text: string): unknown };
  /** isTTY, as a terminal's stream has it, decides how progress is shown. */
  stderr: { write(text: string): unknown; isTTY?: boolean };
  config: Config;
}

export type Command = (args: string[], io: CliIo) => Promise<number>;

/** A usage problem: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A JSON file named on the command line; one that cannot be read or parsed is the user's to fix. */
export function readJsonFile(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`${file}: ${(err as Error).message}`);
  }
}
