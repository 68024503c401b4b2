export { ConnectSessions } from './connect-sessions.service';
export { ConnectSessionsModule } from './connect-sessions.module';
