import { ConnectSessionsModule } from '@app/connect-sessions';
import { WorkspacesModule } from '@app/workspaces';
import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS, corsMethodsFor } from './widget-cors';
import { WidgetController } from './widget.controller';

/** Answers preflights itself and marks session responses (errors included) as readable cross-origin. */
@Injectable()
class SessionCors implements OnModuleInit {
  constructor(private readonly adapter: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapter.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify) return;
    fastify.addHook('onRequest', (request, reply, done) => {
      const methods = corsMethodsFor(request.url);
      if (!methods.length) return done();
      void reply.header('access-control-allow-origin', '*');
      void reply.header('vary', 'origin');
      if (request.method !== 'OPTIONS') {
        void reply.header('access-control-expose-headers', CORS_EXPOSED_HEADERS);
        return done();
      }
      void reply
        .status(204)
        .header('access-control-allow-methods', [...methods, 'OPTIONS'].join(', '))
        .header('access-control-allow-headers', CORS_ALLOWED_HEADERS)
        .header('access-control-max-age', '600')
        .send();
    });
  }
}

/** GET /widget.js, /widget/demo and /connect (public), and CORS for the connect-session endpoints. */
@Module({
  imports: [ConnectSessionsModule, WorkspacesModule],
  controllers: [WidgetController],
  providers: [SessionCors],
})
export class WidgetModule {}
