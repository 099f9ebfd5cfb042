// Structured logs (pino). Secrets never reach a log line: payment tokens and authorisation headers are redacted.
import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';
import type { Config } from './config.ts';
import { stderrDestination } from './log-destination.ts';

/** What a module needs of a logger; the service's pino logger is one, and tests pass small fakes. */
export interface Logger {
  debug(obj: object | string, msg?: string): void;
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
}

export type AppLogger = PinoLogger;

export function createLogger(
  config: Pick<Config, 'logLevel'>,
  destination: DestinationStream = stderrDestination(),
): AppLogger {
  return pino(
    {
      level: config.logLevel,
      base: { service: 'dvs' },
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'payment_token', '*.payment_token', 'token'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
