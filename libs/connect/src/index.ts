export * from './provider-profile';
export * from './provider-catalog';
export * from './detect-provider';
export * from './registrable-domain';
export * from './provider-detector.service';
