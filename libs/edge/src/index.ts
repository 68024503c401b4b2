/** The edge data plane (issue 9): TLS by SNI, proxy and redirect to origins, ACME HTTP-01 answers. */
export * from './edge.module';
export * from './edge.options';
export * from './edge-route';
export * from './edge-servers.service';
export * from './route.store';
export * from './certificate.store';
export { OriginBlockedError, createSafeLookup, resolveAllowed } from './safe-lookup';
export type { AddressResolver, SafeLookup } from './safe-lookup';
export { parseHost } from './host';
export { originPath, redirectLocation, parseRequestTarget } from './request-target';
