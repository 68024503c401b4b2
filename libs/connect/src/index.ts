export { registrableDomain } from './registrable-domain';
export { ProviderDetector } from './provider-detector.service';
export { publicKeyTxtRecords } from './domain-connect';
export { ConnectApiModule } from './connect.module';
// The value lists the API document names (libs/openapi).
export { CONNECT_METHODS, connectInstructionsSchema } from './instructions.builder';
export { DOMAIN_CONNECT_REASONS } from './domain-connect';
