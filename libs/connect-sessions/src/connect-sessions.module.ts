import { DomainsApiModule } from '@app/domains';
import { Module } from '@nestjs/common';
import { CONNECT_SESSION_CLOCK, systemSessionClock } from './connect-session.clock';
import { ConnectSessionsController } from './connect-sessions.controller';
import { ConnectSessions } from './connect-sessions.service';

/** POST /v1/domains/{id}/connect-session and the `cs_` credential kind (api, standalone). */
@Module({
  imports: [DomainsApiModule],
  controllers: [ConnectSessionsController],
  providers: [ConnectSessions, { provide: CONNECT_SESSION_CLOCK, useValue: systemSessionClock }],
  exports: [ConnectSessions],
})
export class ConnectSessionsModule {}
