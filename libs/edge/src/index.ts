/** The edge data plane (issue 9): TLS by SNI, proxy and redirect to origins, ACME HTTP-01 answers. */
export { EdgeModule } from './edge.module';
export type { EdgeOptions } from './edge.options';
export { RouteStore } from './route.store';
