export * from './openapi.module';
export * from './openapi.service';
export * from './operations';
export { isApiPath } from './route-scanner';
export type { RouteInfo } from './route-scanner';
