import type { DestinationStream, LogFn, Logger } from 'pino';
import pretty from 'pino-pretty';

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

/**
 * On a terminal, readable lines (pino-pretty, synchronous so they stay in order with the banner);
 * anywhere else, and with LOG_FORMAT=json, the JSON lines log collectors expect.
 */
export function logDestination(): DestinationStream | undefined {
  if (!process.stdout.isTTY || process.env.LOG_FORMAT === 'json') return undefined;
  return pretty({ sync: true, colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' });
}
