export * from './connect-session.token';
export * from './connect-sessions.service';
export * from './connect-sessions.module';
