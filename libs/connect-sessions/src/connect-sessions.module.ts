import { DomainsApiModule } from '@app/domains';
import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { ConnectSessionViewInterceptor } from './connect-session-view.interceptor';
import { ConnectSessionsController } from './connect-sessions.controller';
import { ConnectSessions } from './connect-sessions.service';

/**
 * POST /v1/domains/{id}/connect-session, the `cs_` credential kind and what such a caller sees of
 * its domain (api, standalone).
 */
@Module({
  imports: [DomainsApiModule],
  controllers: [ConnectSessionsController],
  providers: [ConnectSessions, { provide: APP_INTERCEPTOR, useClass: ConnectSessionViewInterceptor }],
  exports: [ConnectSessions],
})
export class ConnectSessionsModule {}
