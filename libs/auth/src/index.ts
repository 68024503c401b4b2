export * from './api-key.entity';
export * from './api-key-format';
export * from './api-key.service';
export * from './auth.decorators';
export * from './auth.module';
export * from './bearer';
export * from './credential-resolvers';
export * from './principal';
