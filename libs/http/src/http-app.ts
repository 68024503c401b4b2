import { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger, PinoLogger } from 'nestjs-pino';
import { BODY_LIMIT_BYTES, registerJsonBodyParser } from './json-body-parser';
import { registerFormBodyParser } from './form-body-parser';
import { notifyHttpResponse } from './http-observer';
import { REQUEST_ID_HEADER, newRequestId } from './request-id';
import { logRequest } from './request-log';

/** The Fastify adapter every app uses: body limit, request ids, no Fastify logger (pino is ours). */
export function createFastifyAdapter(trustedProxies: string[] = []): FastifyAdapter {
  return new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => newRequestId(),
    // X-Forwarded-For is believed only from these proxies (request.ip is then the client).
    trustProxy: trustedProxies.length ? trustedProxies : false,
    return503OnClosing: true,
  });
}

/**
 * Wires what lives below Nest's pipeline: JSON parsing, the request-id header on every response and
 * the request log line.
 * Errors Fastify raises before a route runs (bad JSON, body limits) reach AllExceptionsFilter through
 * the error handler Nest installs.
 */
export function configureHttpApp(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  registerJsonBodyParser(fastify);
  registerFormBodyParser(fastify);
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    logRequest(PinoLogger.root, request, reply);
    notifyHttpResponse({
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      statusCode: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
    done();
  });
  app.useLogger(app.get(Logger));
}

/** Creates a configured Fastify-based Nest app for a root module (used by every main.ts and by e2e tests). */
export async function createHttpApp(
  rootModule: Type<unknown> | DynamicModule,
  trustedProxies: string[] = [],
): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(rootModule, createFastifyAdapter(trustedProxies), {
    bufferLogs: true,
    // Our own JSON parser (json-body-parser.ts) replaces Nest's.
    bodyParser: false,
  });
  configureHttpApp(app);
  return app;
}

export type { INestApplication };
