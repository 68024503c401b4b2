export * from './acme-issuer.service';
export * from './certificate.repository';
export * from './certificate-manager.service';
export * from './certificates.module';
export * from './issuance-error';
