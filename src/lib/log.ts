// Structured logs (pino). Secrets never reach a log line: payment tokens and authorisation headers are redacted.
import type { DestinationStream, Logger as PinoLogger, pino as Pino } from 'pino';
import type { Config } from './config.ts';
import { lazyRequire } from './lazy-require.ts';
import { stderrDestination } from './log-destination.ts';

/** pino and the 20 modules it loads: 15 to 30 ms of a command that may log nothing. */
const pinoModule = lazyRequire<{ pino: typeof Pino }>('pino');

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
  return pinoModule().pino(
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

/** pino's level numbers, by name. */
const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };

/**
 * A Logger that makes the pino logger at its first line the level lets through: a command that logs nothing (a
 * `dvs scan` at its default level, warn) never loads pino.
 */
export function lazyLogger(
  config: Pick<Config, 'logLevel'>,
  destination: DestinationStream = stderrDestination(),
): Logger {
  // A level pino does not know is refused at once, as pino refuses it.
  if (config.logLevel !== 'silent' && !Object.hasOwn(LEVELS, config.logLevel)) return createLogger(config, destination);
  let logger: AppLogger | undefined;
  const threshold = LEVELS[config.logLevel] ?? Infinity;
  const at =
    (level: keyof Logger): Logger[keyof Logger] =>
    (obj, msg) => {
      if (LEVELS[level]! >= threshold) (logger ??= createLogger(config, destination))[level](obj as object, msg);
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn') };
}
