export { connectSessionSchema, ConnectSessions } from './connect-sessions.service';
export { ConnectSessionsModule } from './connect-sessions.module';
export { CUSTOMER_DOMAIN_FIELDS } from './customer-domain.view';
export { customerCertificate } from './customer-certificate';
