import { AuthGuard, RequestWithPrincipal } from '@app/auth';
import { RateLimitGuard } from '@app/limits';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainViews } from './domain-views.service';
import { DomainsController } from './domains.controller';
import { fastPathAnswers } from './fast-path-answers';

/** The route as Fastify knows it (DomainsController's `@Get(':id')` under `v1/domains`). */
const DOMAIN_READ_ROUTE = '/v1/domains/:id';
const JSON_TYPE = 'application/json; charset=utf-8';

const answers = fastPathAnswers(
  'domains_read_fast_path_answers',
  'GET /v1/domains/{id} answered from memory before the Nest pipeline, since start',
);

type ReadRequest = FastifyRequest<{ Params: { id?: string } }> & RequestWithPrincipal;

/**
 * `GET /v1/domains/{id}` answered from memory before Nest's pipeline, when everything it needs
 * is already there: the API key's principal (trusted, cached), a rate-limit reserve (no counting
 * statement) and the view of this workspace's domain (DomainViews' cache, with its serialized body).
 * Then it costs what a cached read costs: a hash, three map lookups and a socket write. Anything
 * else (a cold key, a connect-session token, an empty reserve, a cache miss) falls through to the
 * controller untouched, which answers it, errors included; so the answer is the same either way
 * (test/domain-read-fast-path.e2e-spec.ts compares them). The route's own guards decide what a
 * principal may read (AuthGuard.authorizeCached reads the route's metadata), the request-id,
 * metrics and log hooks run as for any request.
 */
@Injectable()
export class DomainReadFastPath implements OnModuleInit {
  /** Requests answered here (tests and the benchmark read it). */
  hits = 0;

  constructor(
    private readonly adapter: HttpAdapterHost,
    private readonly auth: AuthGuard,
    private readonly limits: RateLimitGuard,
    private readonly views: DomainViews,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapter.httpAdapter?.getInstance<FastifyInstance>();
    fastify?.addHook('preHandler', (request, reply, done) => {
      if (request.method !== 'GET' || request.routeOptions.url !== DOMAIN_READ_ROUTE) return done();
      const body = this.answer(request as ReadRequest, reply);
      // Replying from a callback hook ends the request here: `done` is not called.
      if (body === undefined) return done();
      this.hits++;
      answers.answered++;
      void reply.type(JSON_TYPE).send(body);
    });
  }

  private answer(request: ReadRequest, reply: FastifyReply): string | undefined {
    const id = request.params.id;
    // eslint-disable-next-line @typescript-eslint/unbound-method -- the handler is the metadata key, never called here
    if (!id || !this.auth.authorizeCached(request, DomainsController, DomainsController.prototype.get)) {
      return undefined;
    }
    const body = this.views.cachedBody(request.principal!.workspaceId, id);
    // Counted last, so a request that falls through is counted once, by the guard.
    if (body === undefined || !this.limits.admitLocally(request, reply)) {
      request.principal = undefined;
      return undefined;
    }
    return body;
  }
}
