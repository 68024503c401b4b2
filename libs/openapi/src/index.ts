export * from './openapi.module';
export * from './openapi.service';
export * from './operations';
export type { RouteInfo } from './route-scanner';
