import { DynamicModule, Type } from '@nestjs/common';
import { ModulesContainer, NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DomainError } from '@app/kernel';
import { withCaller } from './caller-presence';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Logger, PinoLogger } from 'nestjs-pino';
import type { Socket } from 'node:net';
import { replyWithError } from './all-exceptions.filter';
import { routeKey, routesTakingBodies } from './body-routes';
import { clientErrorAnswer } from './error-envelope';
import { BODY_LIMIT_BYTES, registerJsonBodyParser } from './json-body-parser';
import { registerFormBodyParser } from './form-body-parser';
import { notifyHttpResponse } from './http-observer';
import { REQUEST_ID_HEADER, newRequestId } from './request-id';
import { logRequest } from './request-log';
import { RouteTable } from './route-table';

/** The request log line and the metrics of an answered request. */
function afterResponse(request: FastifyRequest, reply: FastifyReply): void {
  logRequest(PinoLogger.root, request, reply);
  notifyHttpResponse({
    method: request.method,
    route: request.routeOptions.url ?? 'unmatched',
    statusCode: reply.statusCode,
    seconds: reply.elapsedTime / 1000,
  });
}

/**
 * Errors Fastify's router raises before any hook runs (a path that is not valid percent-encoding, a
 * path segment over 100 characters): the envelope and a documented status like every other answer.
 */
function answerFrameworkError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
  void reply.header(REQUEST_ID_HEADER, request.id);
  // This reply has no route context, so no onResponse hook: log and count it here.
  reply.raw.once('finish', () => afterResponse(request, reply));
  replyWithError(error, request, reply);
}

/** A request Node's HTTP parser refused (bad header bytes, headers over the limit): the envelope too. */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const { status, body } = clientErrorAnswer(error.code);
    const text = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${status} Bad Request\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `${REQUEST_ID_HEADER}: ${newRequestId()}\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}

/** The Fastify adapter every app uses: body limit, request ids, no Fastify logger (pino is ours). */
export function createFastifyAdapter(trustedProxies: string[] = []): FastifyAdapter {
  return new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => newRequestId(),
    // X-Forwarded-For is believed only from these proxies (request.ip is then the client).
    trustProxy: trustedProxies.length ? trustedProxies : false,
    return503OnClosing: true,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });
}

/** A CORS preflight is the browser's question, answered by the CORS hook of the routes that allow it. */
const isPreflight = (request: FastifyRequest) =>
  request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;

/** The web console's forms carry their CSRF token in the body whatever the route reads: never ignored there. */
const isConsole = (url: string) => /^\/console(\/|$|\?)/.test(url);

/** Lets a body sent to a route that reads none go unread: no parser runs, so it cannot fail the request. */
function ignoreBody(request: FastifyRequest): void {
  const headers = request.headers;
  if (headers['content-type'] === undefined && headers['transfer-encoding'] === undefined) {
    if (headers['content-length'] === undefined || headers['content-length'] === '0') return;
  }
  delete headers['content-type'];
  delete headers['transfer-encoding'];
  headers['content-length'] = '0';
}

/**
 * Wires what lives below Nest's pipeline: JSON parsing, the request-id header on every response, 405
 * with `Allow` for a method a path does not have, bodies of routes that read none ignored, and the
 * request log line.
 * Errors Fastify raises before a route runs (bad JSON, body limits) reach AllExceptionsFilter through
 * the error handler Nest installs.
 */
export function configureHttpApp(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  registerJsonBodyParser(fastify);
  registerFormBodyParser(fastify);
  const routes = new RouteTable();
  fastify.addHook('onRoute', (route) => routes.add(route.method, route.url ?? route.path ?? ''));
  let bodyRoutes: Set<string> | undefined;
  // Per method and route pattern (a finite set), decided once: building the key was 3% of a cached GET.
  const bodyTaken = new Map<string, Map<string, boolean>>();
  const takesBody = (method: string, url: string) => {
    let routes = bodyTaken.get(method);
    if (!routes) bodyTaken.set(method, (routes = new Map<string, boolean>()));
    let takes = routes.get(url);
    if (takes === undefined) {
      takes = (bodyRoutes ??= routesTakingBodies(app.get(ModulesContainer))).has(routeKey(method, url));
      routes.set(url, takes);
    }
    return takes;
  };
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    const route = request.routeOptions.url;
    if (route === undefined && !isPreflight(request)) {
      const path = request.url.split('?')[0];
      const allowed = routes.methodsAt(path);
      if (allowed.length) {
        ignoreBody(request);
        void reply.header('allow', allowed.join(', '));
        const message = `${request.method} is not allowed here: this path answers ${allowed.join(', ')}`;
        replyWithError(new DomainError('method_not_allowed', message, { allow: allowed }), request, reply);
        return;
      }
    }
    if (!isConsole(request.url) && (route === undefined || !takesBody(request.method, route))) ignoreBody(request);
    // The rest of the request runs with its response as the caller: work can tell when the client hung up.
    withCaller(reply.raw, done);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    afterResponse(request, reply);
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
