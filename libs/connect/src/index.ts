export { registrableDomain } from './registrable-domain';
export { ProviderDetector } from './provider-detector.service';
export { publicKeyTxtRecords } from './domain-connect';
export { ConnectApiModule } from './connect.module';
