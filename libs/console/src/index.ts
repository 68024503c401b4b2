export * from './access';
export * from './console.module';
export * from './console-users.store';
