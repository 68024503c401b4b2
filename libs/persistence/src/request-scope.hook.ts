import { MikroORM } from '@mikro-orm/core';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { RequestScopedEntityManager } from './request-scope';

/** Opens a request scope for every HTTP request, in a Fastify hook (no middleware engine per request). */
@Injectable()
export class RequestScopeHook implements OnModuleInit {
  constructor(
    private readonly orm: MikroORM,
    private readonly scope: RequestScopedEntityManager,
    private readonly adapter: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    this.scope.bind(this.orm.em);
    const fastify = this.adapter.httpAdapter?.getInstance<FastifyInstance>();
    fastify?.addHook('onRequest', (_request, _reply, done) => this.scope.run(done));
  }
}
