import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import type { Options } from 'pino-http';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { CallerPresenceModule } from './caller-presence';
import { logDestination, serializeError, startUpAtDebug, withoutSecrets } from './log-output';
import { createValidationPipe } from './validation.pipe';

export interface HttpCoreOptions {
  logLevel: string;
  /** Names the process in every log line (api, node, edge, standalone). */
  service: string;
}

/** Pretty lines on a terminal (log-output.ts), JSON elsewhere. */
function withDestination(options: Options): Options | [Options, NonNullable<ReturnType<typeof logDestination>>] {
  const destination = logDestination();
  return destination ? [options, destination] : options;
}

/** The root logger's options (exported for the test of what a request line holds). */
export function pinoOptions(options: HttpCoreOptions): Options {
  return {
    level: options.logLevel,
    hooks: { logMethod: startUpAtDebug, streamWrite: withoutSecrets },
    base: { service: options.service },
    // Secrets that pass through requests (the customer's DNS token of dns/apply) never reach a log line.
    redact: ['req.headers.authorization', 'req.headers.cookie', 'req.body.token', 'body.token', 'token'],
    // Our serializers get what we log, not an http.ServerResponse: pino-http's wrapping would read a
    // plain `{statusCode}` as a response whose headers are not sent yet and log `statusCode: null`.
    wrapSerializers: false,
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      err: serializeError,
    },
  };
}

/** The request pipeline shared by every app: JSON logs with request ids, the error filter, validation. */
@Module({})
export class HttpCoreModule {
  static forRoot(options: HttpCoreOptions): DynamicModule {
    return {
      module: HttpCoreModule,
      imports: [
        CallerPresenceModule,
        LoggerModule.forRoot({
          // No pino-http middleware per request: request lines come from an onResponse hook
          // (request-log.ts). pino-http still builds the root logger the app logs through.
          forRoutes: [],
          pinoHttp: withDestination(pinoOptions(options)),
        }),
      ],
      providers: [
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
