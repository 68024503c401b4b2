export { CertificateManager } from './certificate-manager.service';
export { CertificatesModule } from './certificates.module';
