import { AuthGuard, RequestWithPrincipal } from '@app/auth';
import { API_CHANGES, ApiChanges, createValidationPipe, replyWithError } from '@app/http';
import { RateLimitGuard } from '@app/limits';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CreateDomain } from './create-domain.usecase';
import { DomainsController } from './domains.controller';
import { CreateDomainDto } from './dto/create-domain.dto';
import { fastPathAnswers } from './fast-path-answers';

/** The route as Fastify knows it (DomainsController's `@Post()` under `v1/domains`). */
const DOMAIN_CREATE_ROUTE = '/v1/domains';
const BODY = { type: 'body', metatype: CreateDomainDto, data: undefined } as const;

const answers = fastPathAnswers(
  'domains_create_fast_path_answers',
  'POST /v1/domains answered before the Nest pipeline, since start',
);

type CreateRequest = FastifyRequest<{ Params: Record<string, string | undefined> }> & RequestWithPrincipal;

/**
 * `POST /v1/domains` run before Nest's pipeline when its guards can decide in memory: the API key's
 * principal is cached and trusted, and a rate-limit reserve is there. Then it runs what the
 * pipeline would: the same validation pipe, the same use case, 201 with the same answer, the same
 * error envelope, and the audit entry the console's interceptor writes (API_CHANGES). What Nest
 * costs per request (guards, interceptors, the pipe's parameter lookups, rxjs) is a fifth of the
 * api's CPU per creation (bench/results/domains.create.notes.md). Anything else falls through
 * untouched: a cold key, a connect-session token, an empty reserve, and any Idempotency-Key (its
 * interceptor keeps and replays answers). test/domain-create-fast-path.e2e-spec.ts compares the two.
 */
@Injectable()
export class DomainCreateFastPath implements OnModuleInit {
  /** Requests answered here (tests and the benchmark read it). */
  hits = 0;
  private readonly pipe = createValidationPipe();
  private changes?: ApiChanges;

  constructor(
    private readonly adapter: HttpAdapterHost,
    private readonly modules: ModuleRef,
    private readonly auth: AuthGuard,
    private readonly limits: RateLimitGuard,
    private readonly creates: CreateDomain,
  ) {}

  onModuleInit(): void {
    this.changes = this.apiChanges();
    const fastify = this.adapter.httpAdapter?.getInstance<FastifyInstance>();
    fastify?.addHook('preHandler', (request, reply, done) => {
      if (request.method !== 'POST' || request.routeOptions.url !== DOMAIN_CREATE_ROUTE) return done();
      const taken = this.take(request as CreateRequest, reply);
      // Answered (or refused) here: `done` is not called, the reply ends the request.
      if (taken === 'fall through') return done();
      this.hits++;
      answers.answered++;
      if (taken === 'admitted') void this.create(request as CreateRequest, reply);
    });
  }

  /** Whether this request is ours: admitted, refused by its rate limit (answered), or not decidable here. */
  private take(request: CreateRequest, reply: FastifyReply): 'admitted' | 'refused' | 'fall through' {
    if (request.headers['idempotency-key'] !== undefined) return 'fall through';
    // eslint-disable-next-line @typescript-eslint/unbound-method -- the handler is the metadata key, never called here
    if (!this.auth.authorizeCached(request, DomainsController, DomainsController.prototype.create)) {
      return 'fall through';
    }
    try {
      if (this.limits.admitLocally(request, reply)) return 'admitted';
    } catch (error) {
      replyWithError(error, request, reply);
      return 'refused';
    }
    request.principal = undefined;
    return 'fall through';
  }

  private async create(request: CreateRequest, reply: FastifyReply): Promise<void> {
    try {
      const dto = (await this.pipe.transform(request.body, BODY)) as CreateDomainDto;
      const answer = await this.creates.execute(request.principal!.workspaceId, dto);
      void reply.code(201).send(answer);
      this.changes?.answered(request, answer);
    } catch (error) {
      replyWithError(error, request, reply);
      this.changes?.refused(request, error);
    }
  }

  /** The console's audit of API changes, where this app has the console (found by token: no import). */
  private apiChanges(): ApiChanges | undefined {
    try {
      return this.modules.get<symbol, ApiChanges>(API_CHANGES, { strict: false });
    } catch {
      return undefined;
    }
  }
}
