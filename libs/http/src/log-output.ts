import { type DestinationStream, type LogFn, type Logger, stdSerializers } from 'pino';
import pretty from 'pino-pretty';
import { redactSecrets } from './secret-redaction';

/**
 * Nest's start-up chatter (a line per module and per route, ~140 lines) is debug detail: at info
 * it buries what matters, the banner included. Logged at debug instead.
 */
const START_UP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

export function startUpAtDebug(this: Logger, args: Parameters<LogFn>, method: LogFn, level: number): void {
  const first = args[0] as { context?: unknown } | undefined;
  const context = typeof first === 'object' && first !== null ? first.context : undefined;
  if (level === this.levels.values.info && typeof context === 'string' && START_UP_CONTEXTS.has(context)) {
    if (this.isLevelEnabled('debug')) this.debug(...(args as [object, string]));
    return;
  }
  method.apply(this, args);
}

/** A person reads this output on a terminal; otherwise it goes to a log collector (JSON lines). */
export const logsArePretty = (): boolean => !!process.stdout.isTTY && process.env.LOG_FORMAT !== 'json';

/**
 * On a terminal, readable lines (pino-pretty, synchronous so they stay in order with the banner);
 * anywhere else, and with LOG_FORMAT=json, the JSON lines log collectors expect.
 */
export function logDestination(): DestinationStream | undefined {
  if (!logsArePretty()) return undefined;
  return pretty({ sync: true, colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' });
}

/** pino's last step before a line is written: secrets cut by shape, name and value (secret-redaction.ts). */
export const withoutSecrets = (line: string): string => redactSecrets(line);

/**
 * PostgreSQL's error fields that quote the data (`detail`: "Failing row contains (...)", `where`,
 * `internalQuery`) stay on the error for code to read, and out of log lines.
 */
const VALUE_FIELDS = ['detail', 'where', 'internalQuery', 'parameters'];

export function serializeError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  return withoutValueFields(stdSerializers.err(err));
}

function withoutValueFields<T>(serialized: T): T {
  if (typeof serialized !== 'object' || serialized === null) return serialized;
  const out = serialized as Record<string, unknown>;
  for (const field of VALUE_FIELDS) delete out[field];
  if (out.cause) withoutValueFields(out.cause);
  return serialized;
}
