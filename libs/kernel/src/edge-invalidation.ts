/** `{hostname}` changed: the edge replica writers copy the change log at once instead of at their next poll. */
export const EDGE_INVALIDATE_SUBJECT = 'edge.invalidate';

interface EdgeInvalidation {
  hostname: string;
}

/** Whatever can publish a message on a subject: the bus, structurally (the kernel imports no transport). */
export interface Publisher {
  publish(subject: string, payload: unknown): void;
}

/** Call after storing a certificate, or when a domain changes or is deleted. */
export function publishEdgeInvalidation(bus: Publisher, hostname: string): void {
  bus.publish(EDGE_INVALIDATE_SUBJECT, { hostname } satisfies EdgeInvalidation);
}

/** The hostname of a well-formed invalidation message, lowercased; undefined otherwise. */
export function invalidatedHostname(payload: unknown): string | undefined {
  const hostname = (payload as Partial<EdgeInvalidation> | null)?.hostname;
  return typeof hostname === 'string' && hostname.length <= 253 ? hostname.trim().toLowerCase() : undefined;
}
