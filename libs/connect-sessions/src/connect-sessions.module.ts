import { DomainsApiModule } from '@app/domains';
import { Module } from '@nestjs/common';
import { ConnectSessionsController } from './connect-sessions.controller';
import { ConnectSessions } from './connect-sessions.service';

/** POST /v1/domains/{id}/connect-session and the `cs_` credential kind (api, standalone). */
@Module({
  imports: [DomainsApiModule],
  controllers: [ConnectSessionsController],
  providers: [ConnectSessions],
  exports: [ConnectSessions],
})
export class ConnectSessionsModule {}
