export * from './dns-resolver';
export * from './dns-prober';
export * from './caa-lookup';
export * from './origin-preflight';
export * from './dns.module';
export * from './served-certificate.probe';
export * from './dns-diagnostics';
export * from './dns-wire';
