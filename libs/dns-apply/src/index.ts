export * from './dns-provider';
export * from './dns-apply.plan';
export * from './dns-apply.usecase';
export * from './dns-apply.module';
