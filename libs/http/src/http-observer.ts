/** One answered HTTP request, as metrics see it. */
export interface HttpObservation {
  method: string;
  /** The route template (`/v1/domains/:id`), or `unmatched` (404s of unknown paths: bounded labels). */
  route: string;
  statusCode: number;
  seconds: number;
}

type HttpObserver = (observation: HttpObservation) => void;
const observers = new Set<HttpObserver>();

/**
 * Lets a library below the HTTP layer's dependents (the metrics of libs/health) see every answer
 * without libs/http depending on it. Returns the unsubscribe function.
 */
export function onHttpResponse(observer: HttpObserver): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

export function notifyHttpResponse(observation: HttpObservation): void {
  observers.forEach((observer) => observer(observation));
}
