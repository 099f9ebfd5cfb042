// What every CLI command receives: where to write, and the validated configuration.
import type { Config } from '../config.ts';

export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  config: Config;
}

export type Command = (args: string[], io: CliIo) => Promise<number>;

/** A usage problem: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
